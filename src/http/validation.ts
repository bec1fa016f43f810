import type { FastifySchemaValidationError } from 'fastify';
import { type ContactKind, contactKindsIn } from '../domain/contact-shield.js';
import type { Language } from '../domain/notifications.js';
import {
  closestMatches,
  directionControlIn,
  hasVisibleText,
  PLAIN_TEXT_PATTERN,
  VISIBLE_TEXT_PATTERN,
} from '../domain/text.js';
import { NO_CONTACT_DATA } from '../schemas/common.js';
import type { ApiErrorBody } from '../schemas/error.js';
import { MAX_ERROR_DETAILS } from '../schemas/error.js';
import { ApiError, badRequest } from '../services/errors.js';
import { defaultHint, describeLength, describeType, type JsonSchema, LENGTH_KEYWORDS } from './schema-words.js';

/** The schema and the value at a path inside a request part (through object properties only). */
function at(
  schema: JsonSchema | undefined,
  given: unknown,
  path: readonly string[],
): { schema: JsonSchema | undefined; value: unknown } {
  let current = schema;
  let value = given;
  for (const segment of path) {
    current = /^\d+$/.test(segment)
      ? (current as { items?: JsonSchema } | undefined)?.items
      : current?.properties?.[segment];
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[segment] : undefined;
  }
  return { schema: current, value };
}

/** Why a text broke the rules of domain/text.ts (direction controls, nothing visible), or null. */
function textRuleError(name: string, value: string, expected: string, mustShow: boolean): ApiError | null {
  const control = directionControlIn(value);
  if (control) {
    return badRequest(
      'invalid_parameter',
      name,
      `${name} contains ${control}, a character that changes the direction text is displayed in.`,
      `Remove direction controls (U+202A to U+202E, U+2066 to U+2069) from ${name}; right-to-left text displays correctly without them.`,
    );
  }
  if (!mustShow || hasVisibleText(value)) return null;
  if (value.trim() === '') {
    return badRequest(
      'invalid_parameter',
      name,
      `${name} must not be blank.`,
      `Send ${name} as ${expected} that is not only spaces.`,
    );
  }
  return badRequest(
    'invalid_parameter',
    name,
    `${name} must contain visible text; it has only invisible characters (such as zero-width spaces).`,
    `Send ${name} as ${expected} with at least one visible letter, digit or symbol.`,
  );
}

const CONTACT_WORDS: Record<ContactKind, string> = {
  phone: 'a phone number',
  email: 'an e-mail address',
  iban: 'an IBAN',
  link: 'a messenger, social or payment link',
  handle: 'a messenger handle',
};

/** Why a public text (NO_CONTACT_DATA) was refused: what it holds, and where contact data goes instead. */
function contactDataError(name: string, value: string): ApiError {
  const kinds = contactKindsIn(value).map((kind) => CONTACT_WORDS[kind]);
  const held = kinds.length > 0 ? kinds.join(' and ') : 'contact data';
  return badRequest(
    'invalid_parameter',
    name,
    `${name} contains contact data (${held}); ${name} is public, and public text takes none.`,
    `Remove it from ${name}. Contact data can be shared in the conversation (POST /v1/conversations) once the application is accepted or the booking confirmed; until then the platform masks it there as well.`,
  );
}

/**
 * Turns the ajv errors of a request part into an ApiError that names the parameter, says what is
 * allowed, and offers something to try instead: the first problem as the error itself and, when
 * there are more (ajv runs with allErrors), every problem in `errors`, one per parameter, at most
 * MAX_ERROR_DETAILS. Only those are described (closestMatches and the rest run 20 times at most,
 * however many errors a hostile body causes); ajv's own work with allErrors stays bounded by the
 * body limit, as every string is matched once either way.
 */
export function validationToApiError(
  errors: readonly FastifySchemaValidationError[],
  context: string,
  schema: JsonSchema | undefined,
  given: Readonly<Record<string, unknown>>,
): ApiError {
  const problems: ApiError[] = [];
  const named = new Set<string | null>();
  for (const error of problemsOf(errors)) {
    const problem = problemToApiError(error, context, schema, given);
    if (named.has(problem.param)) continue;
    named.add(problem.param);
    problems.push(problem);
    if (problems.length === MAX_ERROR_DETAILS) break;
  }
  const [first] = problems;
  if (!first) {
    return badRequest(
      'invalid_parameter',
      null,
      'The request is invalid.',
      'Check the parameters against /v1/openapi.json.',
    );
  }
  return problems.length === 1 ? first : new ApiErrors(first, problems);
}

/** An ApiError of several problems: the first is the error itself, all of them are listed in `errors`. */
class ApiErrors extends ApiError {
  constructor(
    first: ApiError,
    readonly problems: readonly ApiError[],
  ) {
    super(first.status, first.code, first.message, {
      param: first.param,
      suggestion: first.suggestion,
      alternatives: first.alternatives,
      headers: first.headers,
      ...(first.de && { de: first.de }),
    });
  }

  override toBody(language: Language = 'en'): ApiErrorBody {
    const errors = this.problems.map((problem) => {
      const { error, param, message, suggestion } = problem.toBody(language);
      return { error, param, message, suggestion };
    });
    return { ...super.toBody(language), errors };
  }
}

/**
 * The errors that are problems of their own, in ajv's order: those inside a failed anyOf (the
 * errors of its branches, which ajv lists right before the anyOf's own) are one problem, the
 * anyOf's. One pass from the end, so a body of many failed unions costs no more than its errors.
 */
function problemsOf(errors: readonly FastifySchemaValidationError[]): FastifySchemaValidationError[] {
  const kept: FastifySchemaValidationError[] = [];
  let union: string | null = null;
  for (let i = errors.length - 1; i >= 0; i--) {
    const error = errors[i] as FastifySchemaValidationError;
    if (union !== null && error.schemaPath.startsWith(union)) continue;
    union = error.keyword === 'anyOf' ? `${error.schemaPath}/` : null;
    kept.push(error);
  }
  return kept.reverse();
}

/** Where a parameter is, in German: unknown, and missing. */
const UNKNOWN_DE: Record<string, string> = {
  querystring: 'Unbekannter Query-Parameter',
  params: 'Unbekannter Pfadparameter',
  body: 'Unbekanntes Feld',
};
const MISSING_DE: Record<string, string> = {
  querystring: 'Der Query-Parameter',
  params: 'Der Pfadparameter',
  body: 'Das Feld',
};

/** The same error with its own German words (issue 36). */
const inGerman = (error: ApiError, de: { message: string; suggestion: string }) =>
  new ApiError(error.status, error.code, error.message, {
    param: error.param,
    suggestion: error.suggestion,
    alternatives: error.alternatives,
    headers: error.headers,
    de,
  });

/** One problem as an ApiError. */
function problemToApiError(
  error: FastifySchemaValidationError,
  context: string,
  schema: JsonSchema | undefined,
  given: Readonly<Record<string, unknown>>,
): ApiError {
  const where = context === 'querystring' ? 'query parameter' : context === 'params' ? 'path parameter' : 'field';
  const known = Object.keys(schema?.properties ?? {});
  if (error.keyword === 'anyOf') {
    const segments = error.instancePath.split('/').filter(Boolean);
    const name = segments.join('.') || '(request)';
    const found = at(schema, given, segments);
    return badRequest(
      'invalid_parameter',
      name,
      `${name} has none of the accepted shapes; got ${JSON.stringify(found.value)?.slice(0, 200)}.`,
      `Send ${name} as described: ${found.schema?.description ?? 'see /v1/openapi.json'}`,
    );
  }
  const params = error.params as Record<string, unknown>;
  // Nested fields are named by their path (location.lat), and advice comes from their own schema.
  const path = error.instancePath.split('/').filter(Boolean);
  const container = at(schema, given, path);
  const qualified = (property: string) => [...path, property].join('.');

  if (error.keyword === 'additionalProperties') {
    const name = qualified(String(params.additionalProperty));
    const known = Object.keys(container.schema?.properties ?? {});
    const close = closestMatches(String(params.additionalProperty), known);
    const unknown = badRequest(
      'unknown_parameter',
      name,
      `Unknown ${where} '${name}'.`,
      close.length > 0
        ? `Did you mean '${close[0]}'?`
        : known.length > 0
          ? `Remove '${name}'; this endpoint accepts: ${known.join(', ')}.`
          : `Remove '${name}'; this endpoint takes no ${where}s.`,
      close.length > 0 ? close : known,
    );
    return inGerman(unknown, {
      message: `${UNKNOWN_DE[context] ?? 'Unbekannter Parameter'} „${name}“.`,
      suggestion:
        close.length > 0
          ? `Meinten Sie „${close[0]}“?`
          : known.length > 0
            ? `Lassen Sie „${name}“ weg; dieser Endpunkt nimmt: ${known.join(', ')}.`
            : `Lassen Sie „${name}“ weg; dieser Endpunkt nimmt keine.`,
    });
  }
  if (error.keyword === 'required') {
    const name = qualified(String(params.missingProperty));
    const missing = container.schema?.properties?.[String(params.missingProperty)];
    const required = badRequest(
      'missing_parameter',
      name,
      `The ${where} '${name}' is required.`,
      `Add ${name}=<${describeType(missing)}>.`,
      missing?.enum?.map(String) ?? [],
    );
    return inGerman(required, {
      message: `${MISSING_DE[context] ?? 'Der Parameter'} „${name}“ fehlt.`,
      suggestion: `Senden Sie ${name}=<${describeType(missing)}> mit (die Beschreibung ist englisch, wie /v1/openapi.json).`,
    });
  }

  const name = path.join('.') || '(request)';
  // The schema of the field itself, also of a list's item (photos.0).
  const propertySchema = path.length > 0 ? container.schema : undefined;
  const value = container.value;
  const shown = typeof value === 'string' ? `'${value.slice(0, 100)}'` : JSON.stringify(value);
  // A length is the problem, not the format: an over-long email is told its length limit.
  const expected = LENGTH_KEYWORDS.includes(error.keyword)
    ? describeLength(propertySchema)
    : describeType(propertySchema);

  if (name === '(request)' && context === 'body') {
    return badRequest(
      'invalid_body',
      null,
      'The body must be a JSON object.',
      known.length > 0 ? `Send a JSON object with the fields ${known.join(', ')}.` : 'Send a JSON object.',
    );
  }
  if (error.keyword === NO_CONTACT_DATA && typeof value === 'string') return contactDataError(name, value);
  const textRule = propertySchema?.pattern === VISIBLE_TEXT_PATTERN || propertySchema?.pattern === PLAIN_TEXT_PATTERN;
  if (textRule && typeof value === 'string' && ['pattern', 'minLength'].includes(error.keyword)) {
    const textError = textRuleError(name, value, expected, propertySchema?.pattern === VISIBLE_TEXT_PATTERN);
    if (textError) return textError;
  }

  if (error.keyword === 'enum') {
    const allowed = (propertySchema?.enum ?? []).map(String);
    const close = typeof value === 'string' ? closestMatches(value, allowed) : [];
    const invalid = badRequest(
      'invalid_enum_value',
      name,
      `${name} must be one of ${allowed.join(', ')}; got ${shown}.`,
      close.length > 0
        ? `Did you mean ${name}=${close[0]}?`
        : `Use one of the values listed in alternatives${defaultHint(propertySchema)}.`,
      allowed,
    );
    return inGerman(invalid, {
      message: `${name} muss einer dieser Werte sein: ${allowed.join(', ')}; gesendet wurde ${shown}.`,
      suggestion:
        close.length > 0 ? `Meinten Sie ${name}=${close[0]}?` : 'Verwenden Sie einen der Werte aus alternatives.',
    });
  }
  if (
    ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength'].includes(error.keyword)
  ) {
    return badRequest(
      'parameter_out_of_range',
      name,
      `${name} must be ${expected}; got ${shown}.`,
      `Send ${name} as ${expected}${defaultHint(propertySchema)}.`,
    );
  }
  return badRequest(
    'invalid_parameter',
    name,
    `${name} must be ${expected}; got ${shown}.`,
    `Send ${name} as ${expected}${defaultHint(propertySchema)}.`,
  );
}
