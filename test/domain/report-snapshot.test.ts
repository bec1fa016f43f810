/**
 * The snapshot a DSA report keeps of its item (migration 0032): texts cut at the limit without
 * splitting a character, photo links at most eight, `truncated` saying whether anything was cut,
 * and the stored JSON read back as it was written.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  cutText,
  parseReportSnapshot,
  REPORT_SNAPSHOT_TEXT_LIMIT,
  reportSnapshot,
} from '../../src/domain/report-snapshot.js';

test('texts are cut at the limit, never in the middle of a surrogate pair', () => {
  assert.equal(cutText('kurz'), 'kurz');
  assert.equal(cutText('x'.repeat(REPORT_SNAPSHOT_TEXT_LIMIT + 1)).length, REPORT_SNAPSHOT_TEXT_LIMIT);
  const emoji = `${'x'.repeat(REPORT_SNAPSHOT_TEXT_LIMIT - 1)}🌳 und mehr`;
  assert.equal(cutText(emoji), 'x'.repeat(REPORT_SNAPSHOT_TEXT_LIMIT - 1), 'the half pair is dropped');
});

test('a snapshot keeps its fields, cuts long texts and photo lists, and says so', () => {
  const job = {
    type: 'job' as const,
    title: 'Hecke schneiden',
    description: 'y'.repeat(5000),
    category: 'GARDENING' as const,
    price_cents: 6000,
    photos: Array.from({ length: 10 }, (_, i) => `https://example.org/${i}.jpg`),
    city: 'Karlsruhe',
    plz: '76227',
    district: 'Durlach',
  };
  const snapshot = reportSnapshot(job);
  assert.equal(snapshot.type, 'job');
  assert.equal(snapshot.version, 1);
  assert.equal(snapshot.truncated, true);
  if (snapshot.type !== 'job') throw new Error('a job snapshot');
  assert.equal(snapshot.description.length, REPORT_SNAPSHOT_TEXT_LIMIT);
  assert.deepEqual(snapshot.photos, job.photos.slice(0, 8));
  assert.deepEqual(
    { ...snapshot, description: job.description, photos: job.photos },
    { ...job, version: 1, truncated: true },
  );
  const review = reportSnapshot({ type: 'review', rating: 2, text: null });
  assert.deepEqual(review, { type: 'review', version: 1, rating: 2, text: null, truncated: false });
  assert.deepEqual(parseReportSnapshot(JSON.stringify(review)), review);
  assert.equal(parseReportSnapshot(null), null);
  assert.throws(() => parseReportSnapshot('{"type":"account"}'), /no report snapshot/);
});
