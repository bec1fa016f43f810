import { type Static, type TSchema, Type } from 'typebox';
import { Value } from 'typebox/value';

const ConfigSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  HOST: Type.String({ minLength: 1, default: '127.0.0.1' }),
  DATABASE_URL: Type.String({
    pattern: '^sqlite:.+',
    default: 'sqlite:./data/marketplace.db',
    description: 'sqlite:<path> or sqlite::memory:',
  }),
  LOG_LEVEL: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'info' }),
  SEED_ON_EMPTY: Type.Boolean({ default: true }),
});

export type Config = Readonly<Static<typeof ConfigSchema>>;
type ConfigKey = keyof Static<typeof ConfigSchema>;

export class ConfigError extends Error {}

interface FieldSchema {
  type?: string;
  minimum?: number;
  maximum?: number;
  enum?: string[];
  description?: string;
}

/** Text to typed value, strictly: "3000.5" or "0x10" stay strings so validation refuses them. */
function convert(schema: FieldSchema, raw: string): unknown {
  if (schema.type === 'integer') return /^-?\d{1,15}$/.test(raw) ? Number(raw) : raw;
  if (schema.type === 'boolean') return /^(true|1)$/i.test(raw) ? true : /^(false|0)$/i.test(raw) ? false : raw;
  return raw;
}

function expectation(schema: FieldSchema): string {
  if (schema.enum) return `must be one of ${schema.enum.join(', ')}`;
  if (schema.type === 'integer') return `must be a whole number from ${schema.minimum} to ${schema.maximum}`;
  if (schema.type === 'boolean') return 'must be true or false';
  return schema.description ? `must be ${schema.description}` : 'must be a non-empty text';
}

/** Reads and validates the environment once; the only place that touches process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const properties = ConfigSchema.properties as unknown as Record<ConfigKey, FieldSchema & TSchema>;
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(properties) as ConfigKey[]) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = convert(properties[key], value);
  }
  const config = Value.Default(ConfigSchema, raw);
  const problems = (Object.keys(properties) as ConfigKey[])
    .filter((key) => !Value.Check(properties[key], (config as Record<string, unknown>)[key]))
    .map((key) => `${key}=${JSON.stringify(env[key] ?? null)}: ${expectation(properties[key])}`);
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return Object.freeze(config as Static<typeof ConfigSchema>);
}

/** A configuration for tests and tools: defaults plus overrides, validated the same way. */
export function testConfig(overrides: Partial<Record<ConfigKey, string>> = {}): Config {
  return loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent', ...overrides });
}
