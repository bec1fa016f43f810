import { type Static, Type } from 'typebox';
import { Value } from 'typebox/value';

const ConfigSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  HOST: Type.String({ minLength: 1, default: '127.0.0.1' }),
  DATABASE_URL: Type.String({
    pattern: '^sqlite:.+',
    default: 'sqlite:./data/marketplace.db',
    description: 'sqlite:<path> or sqlite::memory:',
  }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  SEED_ON_EMPTY: Type.Boolean({ default: true }),
});

export type Config = Readonly<Static<typeof ConfigSchema>>;

export class ConfigError extends Error {}

/** Reads and validates the environment once; the only place that touches process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(ConfigSchema.properties)) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const converted = Value.Convert(ConfigSchema, Value.Default(ConfigSchema, raw));
  const errors = [...Value.Errors(ConfigSchema, converted)];
  if (errors.length > 0) {
    const lines = errors.map((e) => {
      const name = e.instancePath.replace(/^\//, '') || '(config)';
      return `${name}=${JSON.stringify(env[name] ?? null)}: ${e.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return Object.freeze(converted as Static<typeof ConfigSchema>);
}

/** A configuration for tests and tools: defaults plus overrides, validated the same way. */
export function testConfig(overrides: Partial<Record<keyof Static<typeof ConfigSchema>, string>> = {}): Config {
  return loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent', ...overrides });
}
