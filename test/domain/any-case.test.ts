/**
 * anyCasePattern is how the OpenAPI document says what sameIgnoringCase accepts (enum values and
 * true/false in any letter case): the pattern must match exactly the texts the rule accepts, no
 * more (a client would send what the server refuses) and no fewer (Prism would refuse what the
 * server takes).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { CATEGORIES } from '../../src/domain/categories.js';
import { EVENT_TYPES } from '../../src/domain/events.js';
import { anyCasePattern, anyCaseSchema, sameIgnoringCase } from '../../src/domain/text.js';

const VALUE_SETS: readonly (readonly string[])[] = [
  CATEGORIES,
  EVENT_TYPES,
  ['newest', 'price_asc', 'price_desc', 'distance'],
  ['new', 'like_new', 'good', 'fair'],
  ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
  ['true', 'false'],
  ['de', 'en'],
  ['a', 'ab', 'abc', 'b'],
];

/** A value written in any case, sometimes with a character that lower-cases alike (K, U+212A) or a near miss. */
const spelling = (values: readonly string[]) =>
  fc
    .tuple(
      fc.constantFrom(...values),
      fc.array(fc.boolean(), { minLength: 30, maxLength: 30 }),
      fc.constantFrom('as is', 'kelvin', 'drop last', 'add x', 'space', 'dotless i', 'long s'),
    )
    .map(([value, upper, change]) => {
      const cased = [...value].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join('');
      switch (change) {
        case 'kelvin':
          return cased.replace(/k/i, '\u212a');
        case 'drop last':
          return cased.slice(0, -1);
        case 'add x':
          return `${cased}x`;
        case 'space':
          return ` ${cased}`;
        case 'dotless i':
          return cased.replace(/i/i, '\u0131');
        case 'long s':
          return cased.replace(/s/i, '\u017f');
        default:
          return cased;
      }
    });

describe('anyCasePattern', () => {
  for (const values of VALUE_SETS) {
    test(`matches exactly what sameIgnoringCase accepts: ${values.slice(0, 3).join(', ')} ...`, () => {
      const pattern = new RegExp(anyCasePattern(values), 'u');
      fc.assert(
        fc.property(spelling(values), (given) => {
          const accepted = values.some((value) => sameIgnoringCase(value, given));
          assert.equal(pattern.test(given), accepted, JSON.stringify(given));
        }),
        { seed: 20261125, numRuns: 2000 },
      );
    });
  }

  test('writes common beginnings once, and bounds the length', () => {
    assert.equal(anyCasePattern(['de', 'en']), '^(?:[Dd][Ee]|[Ee][Nn])$');
    assert.equal(
      anyCasePattern(['job.created', 'job.updated']),
      '^[Jj][Oo][Bb]\\.(?:[Cc][Rr][Ee][Aa][Tt][Ee][Dd]|[Uu][Pp][Dd][Aa][Tt][Ee][Dd])$',
    );
    assert.equal(anyCasePattern(['like_new']), '^[Ll][Ii][Kk\u212a][Ee]_[Nn][Ee][Ww]$');
    assert.deepEqual(anyCaseSchema(['de', 'like_new']), {
      type: 'string',
      pattern: anyCasePattern(['de', 'like_new']),
      maxLength: 8,
    });
  });
});
