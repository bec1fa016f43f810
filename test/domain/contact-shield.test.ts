/**
 * The contact-data shield (src/domain/contact-shield.ts): what is masked for the other party of a
 * conversation before the deal is made, and what ordinary text stays readable.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { contactKindsIn, MASK, maskContactData, maskConversation } from '../../src/domain/contact-shield.js';

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
  // Issue 30: the variants that got through the first shield
  ['anna\u200B@web.de', MASK],
  ['anna＠web.de', MASK],
  ['anna@wеb.de', MASK], // Cyrillic е
  ['anna@web。de', MASK],
  ['anna -at- web -dot- de', MASK],
  ['IBAN DE89370400440532013000', `IBAN ${MASK}`],
  ['IBAN DE89 3704 0044 0532 0130 00', `IBAN ${MASK}`],
  ['0171\u200C234\u200C5678', MASK],
  ['0️⃣1️⃣7️⃣1️⃣ 2️⃣3️⃣4️⃣5️⃣6️⃣7️⃣8️⃣', MASK],
  ['𝟎𝟏𝟕𝟏 𝟐𝟑𝟒𝟓𝟔𝟕𝟖', MASK],
  ['null eins sieben eins zwei drei vier fünf sechs sieben acht', MASK],
  ['null eins sieben eins, dreiundzwanzig, fünfundvierzig, siebenundsechzig', MASK],
  ['0171x2345678', MASK],
  ['Telegram: @anna_schmidt', `Telegram: ${MASK}`],
  ['paypal.me/annaschmidt', MASK],
  ['linkedin.com/in/anna-schmidt-123', MASK],
  ['Telegram ist anna_schmidt', `Telegram ist ${MASK}`],
  ['Threema: ABCD1234', `Threema: ${MASK}`],
  ['anna.schmidt@gmx', MASK],
  ['annaATwebDOTde', MASK],
  ['anna (at) web (punkt) de', MASK],
  ['O171 2345678', MASK],
  ['wа.me/491712345678', MASK], // Cyrillic а
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
  'Treffpunkt: Kaiserstraße 112, 76133 Karlsruhe, um 14:30 Uhr',
  'Der Schrank ist 180 x 60 x 200 cm, Preis 1.250 € VB',
  'Vom 01.06.2026 bis 15.06.2026, Abholung 7:45, Rückgabe 19h30',
  'See you at the station at 5 pm, it is about 20 minutes from Durlacher Tor.',
  'Punkt 8 Uhr geht los, ein wichtiger Punkt ist noch die Leiter.',
  'Ich brauche zwei Helfer für drei Stunden, Start um acht.',
  'PLZ 76131, 76133 oder 76135',
  'Reifen 205/55 R16, 4 Stück',
  'Hier die Anleitung: https://www.obi.de/magazin/garten/hecke-schneiden',
  'Mein Handy ist leer, ich melde mich hier im Chat.',
];

/**
 * What the shield does not catch (docs/SECURITY.md lists them): kept here so that the document and
 * the code agree; a change that catches one moves it to MASKED.
 */
const KNOWN_LIMITS = [
  'a n n a @ w e b . d e', // letters spaced out
  'Snap: annaschmidt', // a handle that is a plain word
  'Ruf an: 234 56 78', // a local number without its area code, no phone word right before it
  'anna bei gmx punkt de', // "bei" for "at"
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
  for (const text of KNOWN_LIMITS) {
    test(`known limit: ${JSON.stringify(text)} stays as it is`, () => {
      assert.equal(maskContactData(text).masked, false);
    });
  }
  test('the kinds of contact data a text holds, for a refusal to name', () => {
    assert.deepEqual(contactKindsIn('Hecke schneiden, 20 m'), []);
    assert.deepEqual(contactKindsIn('Ruf an: 0171 2345678 oder anna@web.de'), ['phone', 'email']);
    assert.deepEqual(contactKindsIn('wa.me/491712345678'), ['link']);
    assert.deepEqual(contactKindsIn('IBAN DE89370400440532013000'), ['iban']);
  });
  test('six digits after a phone word are a number, five are not (texts with fewer skip the number search)', () => {
    for (const [text, kinds] of [
      ['Tel. 123456', ['phone']],
      ['Tel. 12345', []],
      ['Tel. 1 2 3 4 5 6', ['phone']],
      ['Tel. 1 2 3 4 5', []],
      // Digits in other forms count once the text is read as the shield reads it (normalised).
      ['Tel. １２３４５', []],
      ['Tel. １２３４５６', ['phone']],
      ['Tel: eins zwei drei vier fünf', []],
      ['Tel: eins zwei drei vier fünf sechs', ['phone']],
      ['+49 171 2', []],
      ['+49 171 23', ['phone']],
    ] as const) {
      assert.deepEqual(contactKindsIn(text), kinds, text);
    }
  });
  test('a number split over three messages of one sender is masked in all three', () => {
    const said = (sender: string, text: string) => ({ sender, text });
    const read = maskConversation([
      said('a', 'Ruf mich an: 0171'),
      said('b', 'Gern, wann?'),
      said('a', '234'),
      said('a', '5678'),
    ]);
    assert.deepEqual(
      read.map((m) => m.text),
      [`Ruf mich an: ${MASK}`, 'Gern, wann?', MASK, MASK],
    );
    assert.deepEqual(
      read.map((m) => m.masked),
      [true, false, true, true],
    );
  });
  test('messages of the other side, and those too far back, are not read together', () => {
    const said = (sender: string, text: string) => ({ sender, text });
    const apart = maskConversation([said('a', 'Meine Nummer: 0171'), said('b', '234'), said('b', '5678')]);
    assert.ok(apart.every((m) => !m.masked));
    const far = [
      said('a', 'Meine Nummer: 0171'),
      ...Array.from({ length: 9 }, () => said('b', 'ok')),
      said('a', '2345678'),
    ];
    assert.ok(maskConversation(far).every((m) => !m.masked));
    const ordinary = maskConversation([
      said('a', 'Treffpunkt Kaiserstraße 12'),
      said('a', '76133 Karlsruhe'),
      said('a', 'um 14:30'),
    ]);
    assert.ok(ordinary.every((m) => !m.masked));
  });
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
