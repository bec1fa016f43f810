import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../services/errors.js';

/** The deepest nesting a request body may have; the deepest documented body has 3 levels. */
export const MAX_BODY_DEPTH = 32;

/**
 * How deeply the JSON text nests arrays and objects, counted in one pass over the text (strings
 * skipped), so a hostile body of 20,000 brackets is refused before anything walks it recursively.
 * Stops counting past `limit`.
 */
export function jsonDepth(text: string, limit = MAX_BODY_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return deepest;
}

/** Where a parsed JSON value holds a key that could reach an object's prototype, as a dotted path, or null. */
export function prototypeKeyPath(value: unknown, path: readonly string[] = []): string | null {
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const here = [...path, key];
    if (key === '__proto__') return here.join('.');
    if (key === 'constructor' && item !== null && typeof item === 'object' && 'prototype' in item) {
      return here.join('.');
    }
    const inner = prototypeKeyPath(item, here);
    if (inner) return inner;
  }
  return null;
}

/**
 * application/json bodies, the only ones taken, through Fastify's own parser (which refuses __proto__ and constructor
 * keys), after a check that they nest at most MAX_BODY_DEPTH levels (400 invalid_body otherwise).
 * An empty body is no body (a client library sets Content-Type on a POST without one, such as
 * /cancel): operations that need a body say so through their schema. A refused prototype key is
 * named, not reported as invalid JSON; text that is no JSON is a 400 invalid_json saying where.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  // JSON is the only body media type: text/plain, which Fastify reads by default, is a 415 like
  // every other type (a web page may post text/plain to another site without asking).
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    if (jsonDepth(text) > MAX_BODY_DEPTH) {
      done(
        new ApiError(400, 'invalid_body', `The body nests more than ${MAX_BODY_DEPTH} levels deep.`, {
          suggestion: 'Send the flat JSON object the operation documents (see /v1/openapi.json).',
        }),
        undefined,
      );
      return;
    }
    parse(request, text, (error, value) => {
      if (error) {
        // Valid JSON refused all the same: a prototype key. JSON.parse makes it a plain own property.
        const path = prototypeKeyPath(plainParse(text));
        if (path) {
          const key = path.split('.').at(-1);
          done(
            new ApiError(400, 'invalid_parameter', `The key '${key}' (at ${path}) is not allowed in a request body.`, {
              param: path,
              suggestion: `Remove '${key}': keys that could change the prototype of objects are refused everywhere.`,
            }),
            undefined,
          );
          return;
        }
      }
      done(error ? invalidJson(text) : null, value);
    });
  });
}

/** 400 invalid_json naming where the text stops being JSON and what was expected there. */
function invalidJson(text: string): ApiError {
  const found = jsonSyntaxError(text);
  if (!found) {
    return new ApiError(400, 'invalid_json', 'The body is not valid JSON.', {
      param: 'body',
      suggestion: 'Send the body as JSON (RFC 8259), e.g. written by JSON.stringify or a JSON library.',
    });
  }
  const { line, column } = lineAndColumn(text, found.offset);
  const at = `line ${line}, column ${column}`;
  const got = found.offset >= text.length ? 'the end of the body' : shownCharacter(text, found.offset);
  return new ApiError(
    400,
    'invalid_json',
    `The body is not valid JSON at ${at}: expected ${found.expected}, found ${got}.`,
    {
      param: 'body',
      suggestion: `Correct the JSON at ${at} (names and strings in double quotes, no trailing commas, no comments), e.g. by writing it with JSON.stringify or a JSON library.`,
    },
  );
}

/** A character as a message shows it: printable ones quoted, others as their code point. */
function shownCharacter(text: string, offset: number): string {
  const code = text.codePointAt(offset) ?? 0;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  if (code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0)) return hex;
  return code === 0x27 ? `"'"` : `'${String.fromCodePoint(code)}'`;
}

/** The 1-based line and column (in characters, as editors count them) of an offset of the text. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: Array.from(text.slice(lineStart, offset)).length + 1 };
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const LITERAL = /true|false|null/y;
const HEX4 = /[0-9a-fA-F]{4}/y;
const VALUE = 'a value (an object, array, string, number, true, false or null)';

class SyntaxAt {
  constructor(
    readonly offset: number,
    readonly expected: string,
  ) {}
}

/**
 * Where a text stops being JSON (RFC 8259) and what was expected there, or null for JSON. One pass
 * with a stack of open brackets instead of recursion, linear in the text; run only after the parser
 * refused the text, so that the answer says where, the same on every Node version (V8's messages
 * differ between versions and some give no position).
 */
export function jsonSyntaxError(text: string): { offset: number; expected: string } | null {
  let i = 0;
  const fail = (expected: string): never => {
    throw new SyntaxAt(i, expected);
  };
  const skipWhitespace = () => {
    while (i < text.length && WHITESPACE.has(text.charCodeAt(i))) i++;
  };
  const match = (pattern: RegExp): boolean => {
    pattern.lastIndex = i;
    if (!pattern.test(text)) return false;
    i = pattern.lastIndex;
    return true;
  };
  const string = () => {
    i++; // the opening quote
    for (;;) {
      if (i >= text.length) fail("the closing '\"' of the string");
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) fail('a character of the string (control characters must be escaped, e.g. \\n)');
      if (c !== 0x5c) {
        i++;
        continue;
      }
      i++; // the backslash
      const escaped = text[i];
      if (escaped === 'u') {
        i++;
        if (!match(HEX4)) fail('four hexadecimal digits after \\u');
      } else if (escaped !== undefined && '"\\/bfnrt'.includes(escaped)) i++;
      else fail('an escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX)');
    }
  };
  const name = () => {
    skipWhitespace();
    if (text[i] !== '"') fail('a member name in double quotes');
    string();
    skipWhitespace();
    if (text[i] !== ':') fail("':' after the member name");
    i++;
  };
  /** The closing brackets of the objects and arrays open at i. */
  const open: ('}' | ']')[] = [];
  try {
    value: for (;;) {
      skipWhitespace();
      const c = text[i];
      if (c === '{' || c === '[') {
        i++;
        skipWhitespace();
        const close = c === '{' ? '}' : ']';
        if (text[i] === close) i++;
        else {
          open.push(close);
          if (close === '}') name();
          continue;
        }
      } else if (c === '"') string();
      else if (!match(NUMBER) && !match(LITERAL)) fail(VALUE);
      for (;;) {
        skipWhitespace();
        const close = open.at(-1);
        if (close === undefined) {
          if (i < text.length) fail('the end of the body after the JSON value');
          return null;
        }
        if (text[i] === close) {
          i++;
          open.pop();
        } else if (text[i] === ',') {
          i++;
          if (close === '}') name();
          continue value;
        } else
          fail(close === '}' ? "',' or '}' after a member of the object" : "',' or ']' after an item of the array");
      }
    }
  } catch (error) {
    if (error instanceof SyntaxAt) return { offset: error.offset, expected: error.expected };
    throw error;
  }
}

/** JSON.parse, undefined for text that is no JSON. */
function plainParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
