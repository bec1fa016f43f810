/** How a schema's expectation reads in an ApiError: "a whole number from 1 to 50", "an https URL such as ...". */

export type JsonSchema = {
  description?: string;
  type?: string | string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  format?: string;
  pattern?: string;
  default?: unknown;
  properties?: Record<string, JsonSchema>;
};

const FORMAT_HINTS: Record<string, string> = {
  date: 'a calendar date as YYYY-MM-DD, e.g. 2026-12-05',
  'date-time': 'an RFC 3339 date-time, e.g. 2026-12-05T14:00:00Z',
  // Also what a `pattern` failure of an email field means: its pattern only narrows the format.
  email: 'an email address such as name@example.org',
  uri: 'an absolute URL such as https://example.org/hooks/marketplace',
};

/** What a `pattern` means, where it says more than the format (a photo URL must be https). */
const PATTERN_HINTS: Record<string, string> = {
  '^https://': 'an https URL such as https://example.org/photo.jpg',
};

export const LENGTH_KEYWORDS = ['minLength', 'maxLength'];

export function describeType(schema: JsonSchema | undefined): string {
  if (!schema) return 'a valid value';
  if (schema.enum) return `one of ${schema.enum.join(', ')}`;
  if (schema.pattern && PATTERN_HINTS[schema.pattern]) return PATTERN_HINTS[schema.pattern] ?? '';
  if (schema.format && FORMAT_HINTS[schema.format]) return FORMAT_HINTS[schema.format] ?? '';
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const range = describeRange(schema);
  if (type === 'integer') return `a whole number${range}`;
  if (type === 'number') return `a number${range}`;
  if (type === 'boolean') return 'true or false';
  if (type === 'string') return describeLength(schema);
  return `a valid ${type ?? 'value'}`;
}

export function describeLength(schema: JsonSchema | undefined): string {
  return schema?.maxLength !== undefined
    ? `a text of ${schema.minLength ?? 0} to ${schema.maxLength} characters`
    : 'a text';
}

function describeRange(schema: JsonSchema): string {
  const low = schema.minimum ?? schema.exclusiveMinimum;
  const lowWord = schema.exclusiveMinimum !== undefined ? 'above' : 'from';
  if (low !== undefined && schema.maximum !== undefined) {
    return schema.exclusiveMinimum !== undefined
      ? ` above ${low} and at most ${schema.maximum}`
      : ` from ${low} to ${schema.maximum}`;
  }
  if (low !== undefined) return ` ${lowWord} ${low}`;
  if (schema.maximum !== undefined) return ` up to ${schema.maximum}`;
  return '';
}

export function defaultHint(schema: JsonSchema | undefined): string {
  return schema?.default !== undefined ? ` or omit it to use the default ${JSON.stringify(schema.default)}` : '';
}
