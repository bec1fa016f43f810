/**
 * The contact-data shield (src/domain/contact-shield.ts): what is masked for the other party of a
 * conversation before the deal is made, and what ordinary text stays readable.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MASK, maskContactData } from '../../src/domain/contact-shield.js';

const MASKED: [string, string][] = [
  // E-mail addresses, also written around filters
  ['Schreib mir: anna.schmidt@web.de', `Schreib mir: ${MASK}`],
  ['anna_s+markt@mail.example.org ist meine Adresse', `${MASK} ist meine Adresse`],
  ['anna at web dot de', MASK],
  ['anna AT web DOT de', MASK],
  ['anna (at) gmx (punkt) net', MASK],
  ['anna [at] gmx [dot] net', MASK],
  ['anna{at}posteo{dot}de', MASK],
  ['anna @ web . de', MASK],
  ['anna ät web punkt de', MASK],
  // Phone numbers, German and international
  ['Ruf an: 0171 2345678', `Ruf an: ${MASK}`],
  ['(0721) 12 34 56', MASK],
  ['Tel. 0721/9876543', `Tel. ${MASK}`],
  ['+49 171 2345678', MASK],
  ['+49 (0)721 123456', MASK],
  ['0049 171 2345678', MASK],
  ['+44 20 7946 0958', MASK],
  ['+33 6 12 34 56 78', MASK],
  ['0171-234 56 78 bis 18 Uhr', `${MASK} bis 18 Uhr`],
  // Digits around the filter
  ['0 1 7 1 - 2 3 4 5 6 7', MASK],
  ['0.1.7.1.2.3.4.5.6.7', MASK],
  ['null eins sieben eins zwei drei vier fünf', MASK],
  ['zero one seven one two three four', MASK],
  // Messenger and social links
  ['WhatsApp: wa.me/491711234567', `WhatsApp: ${MASK}`],
  ['https://t.me/anna_ka', MASK],
  ['signal.me/#p/+49171', MASK],
  ['https://chat.whatsapp.com/AbCdEf', MASK],
  ['skype:anna.schmidt?call', MASK],
  ['instagram.com/anna.ka', MASK],
];

const READABLE = [
  'Am 24.12.2026 um 10:30 Uhr, Preis 120 €, PLZ 76131, 3 Stunden',
  'Treffen um 14.30, Haus Nr. 12',
  'Das Datum 2026-12-24 passt',
  'I am at home. Dann gehts los',
  'Ich bin at work.Dann',
  'what is that about',
  'Bohrmaschine für 2 Tage, Kaution 50 Euro',
  'Die Hecke ist 20 m lang und 2,5 m hoch',
  'Kaiserstraße 12, 76133 Karlsruhe',
  'eins zwei drei, los!',
  'Ich komme zwischen 9 und 17 Uhr',
];

describe('the contact-data shield', () => {
  for (const [text, expected] of MASKED) {
    test(`masks ${JSON.stringify(text)}`, () => {
      assert.deepEqual(maskContactData(text), { text: expected, masked: true });
    });
  }
  for (const text of READABLE) {
    test(`keeps ${JSON.stringify(text)}`, () => {
      assert.deepEqual(maskContactData(text), { text, masked: false });
    });
  }
  test('several pieces in one text are each masked; the rest stays as it is', () => {
    const text = 'Hallo! Mail: a@b.de, Handy 0171 2345678, oder wa.me/49171. Bis Samstag.';
    assert.equal(maskContactData(text).text, `Hallo! Mail: ${MASK}, Handy ${MASK}, oder ${MASK} Bis Samstag.`);
  });
  // A guard against catastrophic backtracking on hostile input (a hang fails it), not a speed target.
  test('hostile 4,000-character texts finish', { timeout: 30_000 }, () => {
    for (const hostile of [
      `${'1 '.repeat(1000)}${'a'.repeat(1000)}@${'b.'.repeat(500)}`,
      `${'a.'.repeat(1500)} at ${'b dot '.repeat(150)}`,
      'null '.repeat(800),
    ]) {
      const { text } = maskContactData(hostile.slice(0, 4000));
      assert.ok(text.length > 0);
    }
  });
});
