/**
 * Issue 33, the console's figures of the last 30 days on the run's engine: accounts, jobs,
 * bookings and reports made through the API (and decisions through the admin's service) on
 * different days, counted per UTC day with the zero days filled in, the reports per ground, the
 * median hours to decision per day and overall; then the charts drawn from them: one
 * <svg role="img"> each, no style attribute, text escaped, and tables with the same numbers.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chartsSection, reasonsChart } from '../../src/http/views/console-charts.js';
import { REPORT_REASONS } from '../../src/schemas/notices.js';
import { type ConsoleFigures, figureDays, figuresOf30Days, median } from '../../src/services/console-figures.js';
import { decideReport } from '../../src/services/notices.js';
import { buildTestApp, clientFor, createKey, NOW } from '../helpers/app.js';
import { JOB_BODY, LISTING_BODY } from '../helpers/bodies.js';

const HOUR = 3_600_000;
/** The day before the 30 days (2026-10-22 to 2026-11-20): counted nowhere. */
const BEFORE = new Date('2026-10-21T20:00:00.000Z');
const FIRST = new Date('2026-10-22T00:00:00.000Z');
const MIDDLE = new Date('2026-11-10T09:30:00.000Z');
const at = (instant: Date, hours: number) => new Date(instant.getTime() + hours * HOUR);

/** The days of a series that are not zero. */
const nonZero = (series: { day: string; count: number }[]) =>
  Object.fromEntries(series.filter((row) => row.count > 0).map((row) => [row.day, row.count]));

/** The figure with the id from the rendered section. */
function figureOf(markup: string, id: string): string {
  const start = markup.indexOf(`<figure id="${id}">`);
  assert.ok(start >= 0, `figure ${id}`);
  return markup.slice(start, markup.indexOf('</figure>', start));
}

/** A day table's rows: the day of each row and its cells' text. */
function dayRows(figure: string): Record<string, string[]> {
  const body = figure.slice(figure.indexOf('<tbody>'), figure.indexOf('</tbody>'));
  const rows: Record<string, string[]> = {};
  for (const row of body.matchAll(
    /<tr><th scope="row"><time datetime="([0-9-]{10})">[^<]*<\/time><\/th>(.*?)<\/tr>/g,
  )) {
    rows[row[1] as string] = [...(row[2] as string).matchAll(/<td>([^<]*)<\/td>/g)].map((cell) => cell[1] as string);
  }
  return rows;
}

test('the figures of the last 30 days count per UTC day, per ground and the hours to decision', async (t) => {
  let now = BEFORE;
  const { app, db } = await buildTestApp(t, () => now, { REPORTS_PER_HOUR: '1000' });
  const anonymous = clientFor(app, null);
  const account = (email: string, when: Date) => createKey(db, { email }, when);

  // The day before the 30 days: two accounts, a job, a listing, a booking and a report, none counted.
  const ownerKey = await account('owner@example.org', BEFORE);
  const renterKey = await account('renter@example.org', BEFORE);
  await account('edge@example.org', new Date('2026-10-21T23:59:59.999Z'));
  const owner = clientFor(app, ownerKey.key);
  const renter = clientFor(app, renterKey.key);
  const job = await owner.post('/v1/jobs', JOB_BODY);
  assert.equal(job.status, 201, job.raw);
  const listing = await owner.post('/v1/listings', { ...LISTING_BODY, instant_booking: true });
  assert.equal(listing.status, 201, listing.raw);
  const book = async (start_date: string, end_date: string) => {
    const booked = await renter.post(`/v1/listings/${listing.body.id}/bookings`, { start_date, end_date });
    assert.equal(booked.status, 201, booked.raw);
  };
  const report = async (reason: string) => {
    const filed = await anonymous.post('/v1/reports', {
      reason,
      explanation: 'Bitte prüfen.',
      good_faith: true,
      about: { type: 'job', id: job.body.id },
    });
    assert.equal(filed.status, 201, filed.raw);
    return filed.body.id as string;
  };
  const decide = (reportId: string, when: Date) =>
    decideReport({ db: db.kysely, now: when, claim: null }, reportId, {
      action: 'no_action',
      ground: 'terms',
      explanation: 'Kein Verstoß erkennbar.',
    });
  await book('2026-10-25', '2026-10-25');
  const reportBefore = await report('other');

  // The first of the 30 days, from its first millisecond.
  now = FIRST;
  await account('first@example.org', FIRST);
  await book('2026-10-28', '2026-10-28');
  const reportFirst = await report('scam_or_fraud');
  await decide(reportBefore, at(FIRST, 2)); // 6 hours, decided within the 30 days
  await decide(reportFirst, at(FIRST, 4)); // 4 hours

  // A day in the middle.
  now = MIDDLE;
  await account('middle-1@example.org', MIDDLE);
  await account('middle-2@example.org', MIDDLE);
  assert.equal((await owner.post('/v1/jobs', { ...JOB_BODY, title: 'Rasen mähen' })).status, 201);
  assert.equal((await owner.post('/v1/jobs', { ...JOB_BODY, title: 'Laub rechen' })).status, 201);
  await book('2026-11-12', '2026-11-12');
  const scam = await report('scam_or_fraud');
  const unsafe = await report('unsafe_product');
  await decide(scam, at(MIDDLE, 10)); // 10 hours, decided the same day
  await decide(unsafe, at(MIDDLE, 48)); // 48 hours, decided two days later

  // Today: one undecided report.
  now = NOW;
  await account('today@example.org', NOW);
  assert.equal((await owner.post('/v1/jobs', { ...JOB_BODY, title: 'Zaun streichen' })).status, 201);
  await book('2026-11-25', '2026-11-25');
  await book('2026-11-27', '2026-11-28');
  await report('other');

  const figures = await figuresOf30Days(db.kysely, NOW);
  assert.equal(figures.from, '2026-10-22');
  assert.equal(figures.to, '2026-11-20');
  const days = figureDays(NOW);
  for (const series of [figures.signups, figures.jobs, figures.bookings, figures.decisionHours]) {
    assert.deepEqual(
      series.map((row) => row.day),
      days,
    );
  }
  assert.deepEqual(nonZero(figures.signups), { '2026-10-22': 1, '2026-11-10': 2, '2026-11-20': 1 });
  assert.deepEqual(nonZero(figures.jobs), { '2026-11-10': 2, '2026-11-20': 1 });
  assert.deepEqual(nonZero(figures.bookings), { '2026-10-22': 1, '2026-11-10': 1, '2026-11-20': 2 });
  assert.deepEqual(
    figures.reportsByReason,
    REPORT_REASONS.map((reason) => ({
      reason,
      count: ({ scam_or_fraud: 2, unsafe_product: 1, other: 1 } as Record<string, number>)[reason] ?? 0,
    })),
  );
  assert.deepEqual(
    figures.decisionHours.filter((day) => day.decisions > 0),
    [
      { day: '2026-10-22', hours: 5, decisions: 2 },
      { day: '2026-11-10', hours: 10, decisions: 1 },
      { day: '2026-11-12', hours: 48, decisions: 1 },
    ],
  );
  assert.ok(figures.decisionHours.filter((day) => day.decisions === 0).every((day) => day.hours === null));
  assert.equal(figures.decisions, 4);
  assert.equal(figures.medianHours, 8, 'the median of 4, 6, 10 and 48 hours');

  // The charts: one SVG each, named and described, no style attribute, tables with the same numbers.
  const markup = chartsSection('de', figures).value;
  assert.equal(markup.match(/<svg /g)?.length, 5);
  assert.equal(markup.match(/<svg [^>]*role="img"/g)?.length, 5);
  assert.equal(markup.match(/<figure /g)?.length, 5);
  assert.equal(markup.match(/<details><summary>/g)?.length, 5);
  assert.equal(markup.match(/<table>/g)?.length, 5);
  assert.doesNotMatch(markup, /\sstyle\s*=/i);
  assert.doesNotMatch(markup, /<script|\son[a-z]+=/i);
  assert.match(markup, /<h2 id="figures-heading">Zahlen der letzten 30 Tage<\/h2>/);
  const ids = [...markup.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1]);
  assert.equal(new Set(ids).size, ids.length, 'every id once');
  for (const reference of markup.matchAll(/aria-(?:labelledby|describedby)="([^"]+)"/g)) {
    for (const id of (reference[1] as string).split(' ')) assert.ok(ids.includes(id), `${id} is on the page`);
  }
  assert.match(
    figureOf(markup, 'figures-signups'),
    /<desc id="figures-signups-desc">Insgesamt 4 neue Konten in den 30 Tagen vom 22\. Oktober 2026 bis 20\. November 2026\. Höchster Tageswert: 2 am 10\. November 2026\.<\/desc>/,
  );
  for (const kind of ['signups', 'jobs', 'bookings'] as const) {
    const shown = dayRows(figureOf(markup, `figures-${kind}`));
    assert.deepEqual(
      shown,
      Object.fromEntries(figures[kind].map((row) => [row.day, [String(row.count)]])),
      `${kind} table`,
    );
    const bars = figureOf(markup, `figures-${kind}`).match(/<rect class="bar" /g)?.length;
    assert.equal(bars, figures[kind].filter((row) => row.count > 0).length, `${kind}: a bar per day with any`);
  }
  const reasons = figureOf(markup, 'figures-reports');
  assert.match(reasons, /<tr><th scope="row">Betrug<\/th><td>2<\/td><\/tr>/);
  assert.match(reasons, /<tr><th scope="row">Unsicheres Produkt<\/th><td>1<\/td><\/tr>/);
  assert.match(reasons, /<tr><th scope="row">Rechtswidriger Inhalt<\/th><td>0<\/td><\/tr>/);
  assert.match(reasons, /<tfoot><tr><th scope="row">Summe<\/th><td>4<\/td><\/tr><\/tfoot>/);
  const decisions = figureOf(markup, 'figures-decisions');
  const decided = dayRows(decisions);
  assert.deepEqual(decided['2026-10-22'], ['2', '5']);
  assert.deepEqual(decided['2026-11-12'], ['1', '48']);
  assert.deepEqual(decided['2026-11-11'], ['0', '–']);
  assert.match(decisions, /<tfoot><tr><th scope="row">Alle Tage<\/th><td>4<\/td><td>8<\/td><\/tr><\/tfoot>/);
  assert.match(
    decisions,
    /Median über alle 4 Entscheidungen in den 30 Tagen .*: 8 Stunden; entschieden wurde an 3 von 30 Tagen\./,
  );
  assert.match(decisions, /<path class="series" d="M[^"]+" fill="none"/);
  assert.equal(decisions.match(/<circle /g)?.length, 3 + 1, 'a point per day with decisions, and the legend’s');

  const english = chartsSection('en', figures, 'overview').value;
  assert.match(english, /<h2 id="overview-heading">Figures of the last 30 days<\/h2>/);
  assert.match(english, /4 new accounts in total in the 30 days from 22 October 2026 to 20 November 2026\./);
  assert.match(english, /Median over all 4 decisions .*: 8 hours; decisions were made on 3 of 30 days\./);
  assert.match(english, /<tr><th scope="row">Scam or fraud<\/th><td>2<\/td><\/tr>/);
  assert.doesNotMatch(english, /\sstyle\s*=/i);
});

test('30 days without anything: zeros, no median, and charts that say so', async (t) => {
  const { db } = await buildTestApp(t);
  const figures = await figuresOf30Days(db.kysely, NOW);
  assert.equal(figures.signups.length, 30);
  assert.ok([...figures.signups, ...figures.jobs, ...figures.bookings].every((row) => row.count === 0));
  assert.ok(figures.reportsByReason.every((row) => row.count === 0));
  assert.equal(figures.reportsByReason.length, REPORT_REASONS.length);
  assert.ok(figures.decisionHours.every((day) => day.hours === null && day.decisions === 0));
  assert.equal(figures.medianHours, null);
  assert.equal(figures.decisions, 0);
  const markup = chartsSection('en', figures).value;
  assert.equal(markup.match(/<svg [^>]*role="img"/g)?.length, 5);
  assert.match(markup, /No decisions on reports in the 30 days/);
  assert.doesNotMatch(markup, /<path /);
  assert.doesNotMatch(markup, /NaN|undefined/);
});

test('the days are UTC days, the median takes the middle two of an even count', () => {
  const late = figureDays(new Date('2026-11-20T23:59:59.999Z'));
  assert.equal(late.length, 30);
  assert.equal(late[0], '2026-10-22');
  assert.equal(late[29], '2026-11-20');
  assert.deepEqual(figureDays(new Date('2026-03-02T00:00:00.000Z')).slice(-3), [
    '2026-02-28',
    '2026-03-01',
    '2026-03-02',
  ]);
  assert.equal(median([]), null);
  assert.equal(median([3]), 3);
  assert.equal(median([48, 4, 10, 6]), 8);
  assert.equal(median([1, 9, 2]), 2);
});

test('text from the data is escaped in the charts and their tables', () => {
  const figures: Pick<ConsoleFigures, 'reportsByReason' | 'from' | 'to'> = {
    from: '2026-10-22',
    to: '2026-11-20',
    reportsByReason: [
      { reason: '<script>alert("x")</script>', count: 3 },
      { reason: 'scam_or_fraud', count: 1 },
    ],
  };
  const markup = reasonsChart('en', 'reasons', figures.reportsByReason, figures).value;
  assert.doesNotMatch(markup, /<script/);
  assert.match(markup, /&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt;/);
  assert.match(markup, /<th scope="row">&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt;<\/th><td>3<\/td>/);
  assert.match(markup, /Most frequent ground: &lt;script&gt;/);
  assert.doesNotMatch(markup, /\sstyle\s*=/i);
});
