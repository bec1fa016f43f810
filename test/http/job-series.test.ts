import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import ICAL from 'ical.js';
import { testConfig } from '../../src/config.js';
import { configuredLimits } from '../../src/http/route-deps.js';
import { plannedOccurrencesOf, postDueOccurrences } from '../../src/services/job-series.js';
import { buildTestApp, clientFor, createKey, NOW } from '../helpers/app.js';
import { helperBody, JOB_BODY } from '../helpers/bodies.js';

const DAY_MS = 86_400_000;
/** The sweep's settings as the test app has them (SERIES_HORIZON_DAYS, the platform's fees). */
const SETTINGS = { horizonDays: 28, fees: configuredLimits(testConfig()).fees };

/** A weekly cleaning, Thursdays at 9:00 in Karlsruhe, six times from 26 November 2026. */
const CLEANING = {
  ...JOB_BODY,
  title: 'Wohnung putzen',
  description: 'Drei Zimmer, Küche und Bad, jede Woche.',
  category: 'CLEANING',
  price_eur: 45,
  rrule: 'FREQ=WEEKLY;BYDAY=TH;COUNT=6',
  starts_on: '2026-11-26',
  local_time: '09:00',
};

async function setUp(t: Parameters<typeof buildTestApp>[0], start: Date = NOW) {
  let now = start;
  const clock = () => now;
  const { app, db } = await buildTestApp(t, clock);
  const poster = await createKey(db, { email: 'poster@example.org' });
  const stranger = await createKey(db, { email: 'stranger@example.org' });
  return {
    app,
    db,
    poster: clientFor(app, poster.key),
    stranger: clientFor(app, stranger.key),
    anonymous: clientFor(app, null),
    advance: (days: number) => {
      now = new Date(now.getTime() + days * DAY_MS);
    },
    clock,
    sweep: () => postDueOccurrences(db.kysely, clock(), SETTINGS),
  };
}

type Occurrence = { date: string; starts_at: string; state: string; job_id: string | null };

async function whoPosted(db: Awaited<ReturnType<typeof buildTestApp>>['db'], seriesId: string): Promise<string> {
  const row = await db.kysely
    .selectFrom('job_series')
    .select('owner_account_id')
    .where('id', '=', seriesId)
    .executeTakeFirstOrThrow();
  return row.owner_account_id as string;
}
const states = (occurrences: Occurrence[]) => occurrences.map((o) => `${o.date} ${o.state}`);

describe('job series: a recurring job whose occurrences are ordinary jobs', () => {
  test('created with the occurrences inside the window posted at once; the rest by the sweep, once', async (t) => {
    const { poster, anonymous, advance, sweep, db } = await setUp(t);
    const created = await poster.post('/v1/job-series', CLEANING);
    assert.equal(created.status, 201, created.raw);
    const series = created.body;
    assert.match(series.id, /^ser_[0-9a-f]{16}$/);
    assert.equal(created.headers.location, `/v1/job-series/${series.id}`);
    assert.equal(series.status, 'active');
    assert.equal(series.rrule, 'FREQ=WEEKLY;BYDAY=TH;COUNT=6');
    assert.equal(series.time_zone, 'Europe/Berlin');
    assert.equal(series.price_eur, 45);
    assert.equal(series.category, 'CLEANING');
    // NOW is 2026-11-20 12:00Z; 28 days ahead is 2026-12-18 12:00Z: four Thursdays are inside.
    assert.deepEqual(states(series.occurrences), [
      '2026-11-26 posted',
      '2026-12-03 posted',
      '2026-12-10 posted',
      '2026-12-17 posted',
      '2026-12-24 planned',
      '2026-12-31 planned',
    ]);
    assert.equal(series.occurrences[0].starts_at, '2026-11-26T08:00:00.000Z');

    // Each occurrence is an ordinary open job: readable, searchable, naming its series.
    const first = series.occurrences[0] as Occurrence;
    const job = await anonymous.get(`/v1/jobs/${first.job_id}`);
    assert.equal(job.status, 200, job.raw);
    assert.equal(job.body.series_id, series.id);
    assert.equal(job.body.status, 'open');
    assert.equal(job.body.desired_at, '2026-11-26T08:00:00.000Z');
    assert.equal(job.body.deadline, '2026-11-26T08:00:00.000Z');
    assert.equal(job.body.title, 'Wohnung putzen');
    const found = await anonymous.get('/v1/jobs?category=CLEANING&date=2026-12-03');
    assert.ok(
      found.body.data.some((j: { series_id: string | null }) => j.series_id === series.id),
      'the occurrence of 3 December is found by the date filter',
    );

    // The public view: no exact place, the same as what its jobs show.
    const shown = await anonymous.get(`/v1/job-series/${series.id}`);
    assert.equal(shown.status, 200);
    assert.deepEqual(shown.body, series);
    assert.deepEqual(shown.body.location, job.body.location);

    // A week later the sweep posts the fifth; running it again, or twice at once, posts nothing more.
    advance(7);
    assert.equal(await sweep(), 1);
    assert.deepEqual(await Promise.all([sweep(), sweep()]), [0, 0]);
    const later = await anonymous.get(`/v1/job-series/${series.id}`);
    assert.deepEqual(states(later.body.occurrences), [
      '2026-11-26 posted',
      '2026-12-03 posted',
      '2026-12-10 posted',
      '2026-12-17 posted',
      '2026-12-24 posted',
      '2026-12-31 planned',
    ]);
    const jobs = await db.kysely.selectFrom('jobs').select(['id']).where('series_id', '=', series.id).execute();
    assert.equal(jobs.length, 5);
    const events = await db.kysely
      .selectFrom('events')
      .select('id')
      .where('type', '=', 'job.created')
      .where(
        'subject_id',
        'in',
        jobs.map((j) => j.id),
      )
      .execute();
    assert.equal(events.length, 5, 'one job.created event per posted occurrence');

    // After the last one started, the series is ended.
    advance(40);
    assert.equal(await sweep(), 0, 'nothing is posted for an occurrence whose time passed');
    const ended = await anonymous.get(`/v1/job-series/${series.id}`);
    assert.equal(ended.body.status, 'ended');
    assert.equal(ended.body.occurrences[5].state, 'not_posted', 'its time passed before a sweep ran');
  });

  test('two sweeps at once, as two instances would run them, post each occurrence once', async (t) => {
    const { poster, advance, db, clock } = await setUp(t);
    const daily = await poster.post('/v1/job-series', {
      ...CLEANING,
      rrule: 'FREQ=DAILY;COUNT=40',
      starts_on: '2026-11-21',
    });
    assert.equal(daily.status, 201, daily.raw);
    advance(10);
    const counts = await Promise.all([0, 1, 2].map(() => postDueOccurrences(db.kysely, clock(), SETTINGS)));
    assert.equal(
      counts.reduce((a, b) => a + b, 0),
      10,
    );
    const rows = await db.kysely
      .selectFrom('jobs')
      .select(['occurrence_date'])
      .where('series_id', '=', daily.body.id)
      .execute();
    const dates = rows.map((r) => r.occurrence_date);
    assert.equal(new Set(dates).size, dates.length, 'no occurrence twice');
    assert.equal(dates.length, 38, 'from 21 November to 28 days after 30 November');
  });

  test("a suspended account's series posts nothing until the suspension is lifted", async (t) => {
    const { app, db, poster, advance, sweep } = await setUp(t);
    const { body: series } = await poster.post('/v1/job-series', CLEANING);
    const owner = await db.kysely
      .selectFrom('job_series')
      .select('owner_account_id')
      .where('id', '=', series.id)
      .executeTakeFirstOrThrow();
    const suspend = (at: string | null) =>
      db.kysely.updateTable('accounts').set({ suspended_at: at }).where('id', '=', owner.owner_account_id).execute();
    await suspend(NOW.toISOString());
    advance(7);
    assert.equal(await sweep(), 0);
    await suspend(null);
    assert.equal(await sweep(), 1, 'restored, it posts what is due and still ahead');
    const shown = await clientFor(app, null).get(`/v1/job-series/${series.id}`);
    assert.equal(shown.body.occurrences[4].state, 'posted');
  });

  test('while a moderation decision removes one of its jobs, the series is shown to nobody and posts nothing', async (t) => {
    const { db, poster, anonymous, advance, sweep } = await setUp(t);
    const { body: series } = await poster.post('/v1/job-series', CLEANING);
    const first = (series.occurrences as Occurrence[])[0] as Occurrence;
    // What a DSA decision on a report of the first occurrence writes (services/notices.ts), and its reversal.
    const setStatus = (status: 'removed' | 'open') =>
      db.kysely
        .updateTable('jobs')
        .set({ status })
        .where('id', '=', first.job_id as string)
        .execute();
    await setStatus('removed');
    assert.equal((await anonymous.get(`/v1/job-series/${series.id}`)).status, 404);
    advance(7);
    assert.equal(await sweep(), 0, 'the same content is not posted again');
    assert.equal((await poster.get('/v1/job-series')).body.data[0].id, series.id, 'its owner still lists it');
    await setStatus('open');
    assert.equal((await anonymous.get(`/v1/job-series/${series.id}`)).status, 200);
    assert.equal(await sweep(), 1);
  });

  test('pause, resume, skip and cancel; only the owner changes a series', async (t) => {
    const { poster, stranger, anonymous, advance, sweep } = await setUp(t);
    const { body: series } = await poster.post('/v1/job-series', CLEANING);
    const id = series.id as string;

    assert.equal((await stranger.post(`/v1/job-series/${id}/pause`)).status, 404);
    const paused = await poster.post(`/v1/job-series/${id}/pause`);
    assert.equal(paused.status, 200, paused.raw);
    assert.equal(paused.body.status, 'paused');
    assert.equal(paused.body.occurrences[4].state, 'paused');
    const again = await poster.post(`/v1/job-series/${id}/pause`);
    assert.equal(again.status, 409);
    assert.equal(again.body.error, 'invalid_state_transition');
    assert.deepEqual(again.body.alternatives, ['resume', 'cancel']);

    // Paused over the fifth occurrence's posting time: nothing is posted, and once it has passed it is not_posted.
    advance(7);
    assert.equal(await sweep(), 0);
    advance(28);
    const resumed = await poster.post(`/v1/job-series/${id}/resume`);
    assert.equal(resumed.status, 200, resumed.raw);
    assert.deepEqual(states(resumed.body.occurrences).slice(4), ['2026-12-24 not_posted', '2026-12-31 posted']);

    // Skipping a posted occurrence cancels its job; a date that is no occurrence is 404.
    const { body: other } = await poster.post('/v1/job-series', { ...CLEANING, starts_on: '2026-12-28' });
    const skipDate = other.occurrences[1].date as string;
    const jobId = other.occurrences[1].job_id as string;
    const skipped = await poster.post(`/v1/job-series/${other.id}/occurrences/${skipDate}/skip`);
    assert.equal(skipped.status, 200, skipped.raw);
    assert.equal(skipped.body.occurrences[1].state, 'skipped');
    assert.equal((await anonymous.get(`/v1/jobs/${jobId}`)).body.status, 'cancelled');
    assert.equal((await poster.post(`/v1/job-series/${other.id}/occurrences/${skipDate}/skip`)).status, 200);
    const noSuchDay = await poster.post(`/v1/job-series/${other.id}/occurrences/2026-12-29/skip`);
    assert.equal(noSuchDay.status, 404);
    assert.equal(noSuchDay.body.param, 'date');
    // A skipped occurrence that is not posted yet is never posted.
    const lastDate = other.occurrences[5].date as string;
    assert.equal((await poster.post(`/v1/job-series/${other.id}/occurrences/${lastDate}/skip`)).status, 200);

    // Cancelling cancels the posted occurrences that have not started.
    const cancelled = await poster.post(`/v1/job-series/${other.id}/cancel`);
    assert.equal(cancelled.status, 200, cancelled.raw);
    assert.equal(cancelled.body.status, 'cancelled');
    for (const occurrence of cancelled.body.occurrences as Occurrence[]) {
      if (occurrence.job_id) {
        assert.equal((await anonymous.get(`/v1/jobs/${occurrence.job_id}`)).body.status, 'cancelled');
      } else {
        assert.ok(['skipped', 'not_posted'].includes(occurrence.state), `${occurrence.date} ${occurrence.state}`);
      }
    }
    advance(30);
    assert.equal(await sweep(), 0, 'a cancelled series posts nothing');
    assert.equal((await poster.post(`/v1/job-series/${other.id}/resume`)).status, 409);

    const list = await poster.get('/v1/job-series');
    assert.equal(list.status, 200);
    assert.equal(list.body.total, 2);
    // The page reads its series' occurrences in two queries: each reads as it does alone.
    for (const listed of list.body.data) {
      assert.deepEqual(listed, (await poster.get(`/v1/job-series/${listed.id}`)).body);
    }
    assert.equal((await stranger.get('/v1/job-series')).body.total, 0);
    assert.equal((await anonymous.get('/v1/job-series')).status, 401);
  });

  test('a standing helper applies once, is accepted once and takes a place on every occurrence', async (t) => {
    const { app, db, poster, stranger, anonymous, advance, sweep } = await setUp(t);
    const helperKey = await createKey(db, { email: 'helper@example.org' });
    const helper = clientFor(app, helperKey.key);
    const profile = await helper.post('/v1/helpers', { ...helperBody('Mira K.'), categories: ['CLEANING'] });
    assert.equal(profile.status, 201, profile.raw);
    const other = await stranger.post('/v1/helpers', { ...helperBody('Ole P.'), categories: ['CLEANING'] });
    const { body: series } = await poster.post('/v1/job-series', CLEANING);
    const url = `/v1/job-series/${series.id}/applications`;

    const applied = await helper.post(url, {
      helper_id: profile.body.id,
      message: 'Gern jeden Donnerstag, 0170 1234567.',
    });
    assert.equal(applied.status, 201, applied.raw);
    assert.equal(applied.body.status, 'pending');
    assert.equal(applied.headers.location, `${url}/${applied.body.id}`);
    assert.equal((await helper.post(url, { helper_id: profile.body.id })).body.error, 'already_applied');
    assert.equal((await poster.post(url, { helper_id: profile.body.id })).status, 404, "someone else's helper");
    const listed = await poster.get(url);
    assert.equal(listed.status, 200, listed.raw);
    assert.equal(listed.body.total, 1);
    assert.equal(listed.body.data[0].contact_data_hidden, true, 'the owner reads contact data masked while pending');
    assert.ok(!listed.body.data[0].message.includes('1234567'));
    assert.equal((await stranger.get(url)).status, 404);

    const accept = `${url}/${applied.body.id}/accept`;
    assert.equal((await helper.post(accept)).status, 404, 'the helper does not accept itself');
    assert.equal((await stranger.post(accept)).status, 404);
    const accepted = await poster.post(accept);
    assert.equal(accepted.status, 200, accepted.raw);
    assert.equal(accepted.body.status, 'accepted');
    assert.equal(accepted.body.contact_data_hidden, false);

    // Every posted occurrence now has the helper, accepted: the jobs are assigned, each owes a payment.
    const jobIds = (series.occurrences as Occurrence[]).flatMap((o) => (o.job_id ? [o.job_id] : []));
    assert.equal(jobIds.length, 4);
    for (const jobId of jobIds) {
      assert.equal((await anonymous.get(`/v1/jobs/${jobId}`)).body.status, 'assigned', jobId);
      const applications = (await poster.get(`/v1/jobs/${jobId}/applications`)).body.data;
      assert.deepEqual(
        applications.map((a: { helper_id: string; status: string }) => [a.helper_id, a.status]),
        [[profile.body.id, 'accepted']],
      );
    }
    // The next occurrence posted takes the helper as it is posted.
    advance(7);
    assert.equal(await sweep(), 1);
    const fifth = (await anonymous.get(`/v1/job-series/${series.id}`)).body.occurrences[4] as Occurrence;
    assert.equal((await anonymous.get(`/v1/jobs/${fifth.job_id}`)).body.status, 'assigned');
    const payments = await db.kysely
      .selectFrom('payments')
      .select('id')
      .where('payee_account_id', '=', helperKey.accountId)
      .execute();
    assert.equal(payments.length, 5, 'one payment of the helper’s share per occurrence');

    // One helper is needed: a second standing helper is refused until the first ends.
    const second = await stranger.post(url, { helper_id: other.body.id });
    assert.equal(second.status, 201, second.raw);
    const refused = await poster.post(`${url}/${second.body.id}/accept`);
    assert.equal(refused.status, 409, refused.raw);
    assert.equal(refused.body.error, 'limit_reached');
    const ended = await helper.post(`${url}/${applied.body.id}/end`);
    assert.equal(ended.status, 200, ended.raw);
    assert.equal(ended.body.status, 'ended');
    assert.equal((await helper.post(`${url}/${applied.body.id}/end`)).status, 409);
    advance(7);
    assert.equal(await sweep(), 1);
    const sixth = (await anonymous.get(`/v1/job-series/${series.id}`)).body.occurrences[5] as Occurrence;
    assert.equal(
      (await anonymous.get(`/v1/jobs/${sixth.job_id}`)).body.status,
      'open',
      'an ended helper stands no more',
    );
    assert.equal((await poster.post(`${url}/${second.body.id}/accept`)).status, 200, 'the place is free again');
    assert.equal((await anonymous.get(`/v1/jobs/${sixth.job_id}`)).body.status, 'assigned');
  });

  test('a substitute takes one occurrence: either side excuses the standing helper, money and record follow', async (t) => {
    const { app, db, poster, stranger, anonymous, advance, sweep, clock } = await setUp(t);
    const helperKey = await createKey(db, { email: 'helper@example.org' });
    const helper = clientFor(app, helperKey.key);
    const profile = (await helper.post('/v1/helpers', { ...helperBody('Mira K.'), categories: ['CLEANING'] })).body;
    const substitute = (await stranger.post('/v1/helpers', { ...helperBody('Ole P.'), categories: ['CLEANING'] })).body;
    const { body: series } = await poster.post('/v1/job-series', CLEANING);
    const url = `/v1/job-series/${series.id}/applications`;
    const applied = (await helper.post(url, { helper_id: profile.id })).body;
    const excuse = `${url}/${applied.id}/excuse`;
    const early = await helper.post(excuse, { date: '2026-12-10' });
    assert.equal(early.status, 409, 'only an accepted helper is excused');
    assert.equal(early.body.error, 'invalid_state_transition');
    assert.equal((await poster.post(`${url}/${applied.id}/accept`)).status, 200);
    const jobOf = async (date: string) =>
      ((await anonymous.get(`/v1/job-series/${series.id}`)).body.occurrences as Occurrence[]).find(
        (o) => o.date === date,
      )?.job_id as string;
    const helperApplication = async (jobId: string) =>
      (await poster.get(`/v1/jobs/${jobId}/applications`)).body.data.find(
        (a: { helper_id: string }) => a.helper_id === profile.id,
      );
    const paymentsOf = (applicationId: string) =>
      db.kysely
        .selectFrom('payments')
        .select(['kind', 'status', 'amount_cents'])
        .where('application_id', '=', applicationId)
        .orderBy('created_at')
        .orderBy('kind')
        .execute();
    const cancellationRate = async () =>
      (await anonymous.get(`/v1/helpers/${profile.id}`)).body.reliability.cancellation_rate as number;

    // The helper excuses themselves from 10 December, posted and 19 days ahead: the place ends at
    // once, the poster owes nothing for it, the job opens again, and the record shows no cancellation.
    const tenth = await jobOf('2026-12-10');
    const placed = await helperApplication(tenth);
    assert.equal(placed.status, 'accepted');
    assert.equal((await stranger.post(excuse, { date: '2026-12-10' })).status, 404, 'nobody else excuses');
    const excused = await helper.post(excuse, { date: '2026-12-10' });
    assert.equal(excused.status, 200, excused.raw);
    assert.equal(excused.body.status, 'accepted', 'the helper still stands for the others');
    assert.deepEqual(excused.body.excused, [
      { date: '2026-12-10', by: 'helper', job_id: tenth, created_at: clock().toISOString() },
    ]);
    assert.equal((await anonymous.get(`/v1/jobs/${tenth}`)).body.status, 'open');
    const released = await helperApplication(tenth);
    assert.deepEqual(released.excused, { by: 'helper', excused_at: clock().toISOString() });
    assert.deepEqual(await paymentsOf(placed.id), [{ kind: 'job', status: 'cancelled', amount_cents: 4500 }]);
    assert.equal(await cancellationRate(), 0, 'an excuse 48 hours ahead or more is no cancellation');
    const again = await helper.post(excuse, { date: '2026-12-10' });
    assert.deepEqual(again.body, excused.body, 'excusing again answers as it is');

    // A substitute applies to that one job and is accepted as on any job; the excused helper cannot return to it.
    const sub = await stranger.post(`/v1/jobs/${tenth}/applications`, { helper_id: substitute.id });
    assert.equal(sub.status, 201, sub.raw);
    assert.equal((await poster.post(`/v1/jobs/${tenth}/applications/${sub.body.id}/accept`)).status, 200);
    assert.equal((await anonymous.get(`/v1/jobs/${tenth}`)).body.status, 'assigned');
    assert.equal((await helper.post(`/v1/jobs/${tenth}/applications`, { helper_id: profile.id })).status, 409);
    assert.equal((await anonymous.get(`/v1/jobs/${await jobOf('2026-12-17')}`)).body.status, 'assigned');

    // The poster excuses the helper from 31 December, not posted yet: it is posted without them,
    // 24 December with them; the helper's calendar plans no 31 December.
    const planned = await poster.post(excuse, { date: '2026-12-31' });
    assert.equal(planned.status, 200, planned.raw);
    assert.deepEqual(
      planned.body.excused.map((e: { date: string; by: string; job_id: string | null }) => [e.date, e.by, e.job_id]),
      [
        ['2026-12-10', 'helper', tenth],
        ['2026-12-31', 'poster', null],
      ],
    );
    const calendar = await plannedOccurrencesOf(
      db.kysely,
      helperKey.accountId,
      { from: '2026-12-01', to: '2027-01-31' },
      clock(),
    );
    assert.deepEqual(
      calendar.map((o) => o.date),
      ['2026-12-24'],
    );
    advance(14);
    assert.equal(await sweep(), 2);
    assert.equal((await anonymous.get(`/v1/jobs/${await jobOf('2026-12-24')}`)).body.status, 'assigned');
    const last = await jobOf('2026-12-31');
    assert.equal((await anonymous.get(`/v1/jobs/${last}`)).body.status, 'open');
    assert.equal(await helperApplication(last), undefined, 'the excused helper took no place');

    // Late excuses (17 December at 9:00, 21 hours ahead): the poster's leaves the helper the
    // flexible policy's half as a fee and no mark on their record; the helper's late one would count.
    advance(11.875);
    const seventeenth = await jobOf('2026-12-17');
    const held = await helperApplication(seventeenth);
    const late = await poster.post(excuse, { date: '2026-12-17' });
    assert.equal(late.status, 200, late.raw);
    assert.deepEqual(await paymentsOf(held.id), [
      { kind: 'job', status: 'cancelled', amount_cents: 4500 },
      { kind: 'fee', status: 'awaiting_payment', amount_cents: 2250 },
    ]);
    assert.equal(await cancellationRate(), 0, "the poster's excuse is no cancellation of the helper's");
    assert.equal((await anonymous.get(`/v1/jobs/${seventeenth}`)).body.status, 'open');

    // Nothing to excuse: an unknown date, a started occurrence, someone else's application.
    const unknown = await helper.post(excuse, { date: '2026-12-11' });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.param, 'date');
    const started = await helper.post(excuse, { date: '2026-12-03' });
    assert.equal(started.status, 409);
    assert.equal(started.body.param, 'date');
    assert.match(started.body.suggestion, /no-show/);
    const events = await db.kysely
      .selectFrom('events')
      .select(['type', 'audience'])
      .where('type', '=', 'job_series.helper_excused')
      .execute();
    assert.equal(events.length, 3, 'one event an excuse, none for a repeated one');
    // Split for this and the following: the new part's helper keeps the excuse from 31 December.
    const split = await poster.patch(`/v1/job-series/${series.id}`, { price_eur: 50, from: '2026-12-24' });
    assert.equal(split.status, 200, split.raw);
    const carried = (await poster.get(`/v1/job-series/${split.body.id}/applications`)).body.data[0];
    assert.deepEqual(
      carried.excused.map((e: { date: string; by: string }) => `${e.date} ${e.by}`),
      ['2026-12-31 poster'],
    );
    const kept = (await poster.get(url)).body.data[0];
    assert.deepEqual(
      kept.excused.map((e: { date: string }) => e.date),
      ['2026-12-10', '2026-12-17'],
    );
    for (const event of events) {
      assert.deepEqual(
        JSON.parse(event.audience as string).sort(),
        [helperKey.accountId, await whoPosted(db, series.id)].sort(),
      );
    }
    // Erased, the helper takes the record of when they were away with them.
    const erased = await helper.delete('/v1/me', { confirm: 'helper@example.org' });
    assert.ok(erased.status < 300, erased.raw);
    const left = await db.kysely.selectFrom('job_series_excusals').select('occurrence_date').execute();
    assert.deepEqual(left, []);
  });

  test('a helper excusing themselves less than 48 hours ahead counts as their cancellation, the poster refunded in full', async (t) => {
    const { app, db, poster, anonymous, advance } = await setUp(t);
    const helper = clientFor(app, (await createKey(db, { email: 'helper@example.org' })).key);
    const profile = (await helper.post('/v1/helpers', { ...helperBody('Mira K.'), categories: ['CLEANING'] })).body;
    const { body: series } = await poster.post('/v1/job-series', CLEANING);
    const applied = (await helper.post(`/v1/job-series/${series.id}/applications`, { helper_id: profile.id })).body;
    assert.equal((await poster.post(`/v1/job-series/${series.id}/applications/${applied.id}/accept`)).status, 200);
    advance(12.75); // 3 December, 6:00 local: the occurrence starts in three hours
    const late = await helper.post(`/v1/job-series/${series.id}/applications/${applied.id}/excuse`, {
      date: '2026-12-03',
    });
    assert.equal(late.status, 200, late.raw);
    const job = late.body.excused[0].job_id;
    assert.equal((await anonymous.get(`/v1/jobs/${job}`)).body.status, 'open');
    const payments = await db.kysely
      .selectFrom('payments')
      .select(['kind', 'status'])
      .where('job_id', '=', job)
      .execute();
    assert.deepEqual(payments, [{ kind: 'job', status: 'cancelled' }], 'nothing kept: the helper excused');
    const rate = (await anonymous.get(`/v1/helpers/${profile.id}`)).body.reliability.cancellation_rate;
    assert.ok(rate > 0, `a late excuse counts: ${rate}`);
  });

  test('the private calendar feeds show the posted occurrences as jobs and the planned ones as tentative', async (t) => {
    const { app, db, poster } = await setUp(t);
    const helperKey = await createKey(db, { email: 'helper@example.org' });
    const helper = clientFor(app, helperKey.key);
    const profile = await helper.post('/v1/helpers', { ...helperBody('Mira K.'), categories: ['CLEANING'] });
    const { body: series } = await poster.post('/v1/job-series', { ...CLEANING, duration_hours: 3 });
    const applied = await helper.post(`/v1/job-series/${series.id}/applications`, { helper_id: profile.body.id });
    assert.equal((await poster.post(`/v1/job-series/${series.id}/applications/${applied.body.id}/accept`)).status, 200);
    const feed = async (client: typeof poster) => {
      const made = await client.post('/v1/me/calendar-feed');
      assert.equal(made.status, 201, made.raw);
      const ics = await app.inject({ method: 'GET', url: made.body.url });
      assert.equal(ics.statusCode, 200);
      const events = new ICAL.Component(ICAL.parse(ics.body)).getAllSubcomponents('vevent');
      return events
        .map((event) => ({
          summary: String(event.getFirstPropertyValue('summary')),
          start: (event.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString(),
          status: String(event.getFirstPropertyValue('status')),
        }))
        .sort((a, b) => a.start.localeCompare(b.start));
    };
    const expected = (posted: string, planned: string) =>
      (series.occurrences as Occurrence[]).map((o, i) => ({
        summary: `${i < 4 ? posted : planned}: Wohnung putzen`,
        start: o.starts_at,
        status: i < 4 ? 'CONFIRMED' : 'TENTATIVE',
      }));
    assert.deepEqual(await feed(poster), expected('Auftrag / Job posted', 'Auftrag geplant / Job planned'));
    assert.deepEqual(await feed(helper), expected('Einsatz / Job to do', 'Einsatz geplant / Job to do, planned'));
  });

  test('an edit changes every occurrence, or splits the series for this and the following ones', async (t) => {
    const { poster, stranger, anonymous, advance, sweep } = await setUp(t);
    const { body: series } = await poster.post('/v1/job-series', CLEANING);
    const jobOf = async (occurrence: Occurrence) => (await anonymous.get(`/v1/jobs/${occurrence.job_id}`)).body;

    assert.equal((await stranger.patch(`/v1/job-series/${series.id}`, { price_eur: 50 })).status, 404);
    const all = await poster.patch(`/v1/job-series/${series.id}`, { price_eur: 50, local_time: '10:00' });
    assert.equal(all.status, 200, all.raw);
    assert.equal(all.body.id, series.id);
    assert.equal(all.body.price_eur, 50);
    assert.equal(all.body.local_time, '10:00');
    assert.equal(all.body.occurrences[0].starts_at, '2026-11-26T09:00:00.000Z');
    for (const occurrence of (all.body.occurrences as Occurrence[]).slice(0, 4)) {
      const job = await jobOf(occurrence);
      assert.equal(job.price_eur, 50);
      assert.equal(job.desired_at, occurrence.starts_at);
    }
    advance(7);
    assert.equal(await sweep(), 1);
    const fifth = (await anonymous.get(`/v1/job-series/${series.id}`)).body.occurrences[4] as Occurrence;
    assert.equal((await jobOf(fifth)).price_eur, 50, 'occurrences posted later take the change');
    assert.equal((await jobOf(fifth)).desired_at, '2026-12-24T09:00:00.000Z');

    // This and following: from the third occurrence (10 December) on, a new series carries the change.
    const third = all.body.occurrences[2] as Occurrence;
    const noSuchDay = await poster.patch(`/v1/job-series/${series.id}`, { title: 'X-Fenster', from: '2026-12-02' });
    assert.equal(noSuchDay.status, 404);
    assert.equal(noSuchDay.body.param, 'from');
    const split = await poster.patch(`/v1/job-series/${series.id}`, { title: 'Fenster putzen', from: third.date });
    assert.equal(split.status, 200, split.raw);
    assert.notEqual(split.body.id, series.id);
    assert.equal(split.body.title, 'Fenster putzen');
    assert.equal(split.body.rrule, 'FREQ=WEEKLY;BYDAY=TH;COUNT=4');
    assert.deepEqual(
      (split.body.occurrences as Occurrence[]).map((o) => o.date),
      ['2026-12-10', '2026-12-17', '2026-12-24', '2026-12-31'],
    );
    const before = (await anonymous.get(`/v1/job-series/${series.id}`)).body;
    assert.equal(before.rrule, 'FREQ=WEEKLY;BYDAY=TH;UNTIL=20261209', 'it ends the day before the split');
    assert.deepEqual(
      (before.occurrences as Occurrence[]).map((o) => `${o.date} ${o.state}`),
      ['2026-11-26 posted', '2026-12-03 posted'],
    );
    for (const occurrence of split.body.occurrences as Occurrence[]) {
      if (!occurrence.job_id) continue;
      const job = await jobOf(occurrence);
      assert.equal(job.series_id, split.body.id);
      assert.equal(job.title, 'Fenster putzen');
    }
    assert.equal((await jobOf(before.occurrences[0])).title, 'Wohnung putzen');
  });

  test('a split series keeps its standing helpers: the new part lists them and its occurrences take them', async (t) => {
    const { app, db, poster, anonymous, advance, sweep } = await setUp(t);
    const helper = clientFor(app, (await createKey(db, { email: 'helper@example.org' })).key);
    const profile = await helper.post('/v1/helpers', { ...helperBody('Mira K.'), categories: ['CLEANING'] });
    const { body: series } = await poster.post('/v1/job-series', CLEANING);
    const applied = await helper.post(`/v1/job-series/${series.id}/applications`, { helper_id: profile.body.id });
    assert.equal((await poster.post(`/v1/job-series/${series.id}/applications/${applied.body.id}/accept`)).status, 200);
    const split = await poster.patch(`/v1/job-series/${series.id}`, { price_eur: 55, from: '2026-12-10' });
    assert.equal(split.status, 200, split.raw);
    const standing = await poster.get(`/v1/job-series/${split.body.id}/applications`);
    assert.deepEqual(
      standing.body.data.map((a: { helper_id: string; status: string }) => [a.helper_id, a.status]),
      [[profile.body.id, 'accepted']],
    );
    advance(7);
    assert.equal(await sweep(), 1);
    const fifth = (await anonymous.get(`/v1/job-series/${split.body.id}`)).body.occurrences[2] as Occurrence;
    assert.equal(fifth.date, '2026-12-24');
    const job = (await anonymous.get(`/v1/jobs/${fifth.job_id}`)).body;
    assert.equal(job.status, 'assigned', 'the standing helper took its place');
    assert.equal(job.price_eur, 55);
  });

  test('bad rules and dates answer 400 naming the parameter', async (t) => {
    const { poster } = await setUp(t);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ rrule: 'FREQ=HOURLY;COUNT=3' }, 'rrule', 'invalid_parameter'],
      [{ rrule: 'FREQ=WEEKLY;BYMONTHDAY=3;COUNT=3' }, 'rrule', 'invalid_parameter'],
      [{ rrule: 'FREQ=WEEKLY;BYDAY=TH' }, 'rrule', 'invalid_parameter'],
      [{ rrule: 'FREQ=WEEKLY;COUNT=53' }, 'rrule', 'invalid_parameter'],
      [{ rrule: 'FREQ=DAILY;UNTIL=20271231' }, 'rrule', 'parameter_out_of_range'],
      [{ rrule: 'FREQ=WEEKLY;COUNT=3;UNTIL=20270101' }, 'rrule', 'invalid_parameter'],
      [{ starts_on: '2026-11-19' }, 'starts_on', 'parameter_out_of_range'],
      [{ starts_on: '2027-03-01' }, 'starts_on', 'parameter_out_of_range'],
      [{ starts_on: '2026-02-30' }, 'starts_on', 'invalid_parameter'],
      [{ local_time: '25:00' }, 'local_time', 'invalid_parameter'],
    ];
    for (const [change, param, error] of cases) {
      const response = await poster.post('/v1/job-series', { ...CLEANING, ...change });
      assert.equal(response.status, 400, `${JSON.stringify(change)}: ${response.raw}`);
      assert.equal(response.body.param, param, JSON.stringify(change));
      assert.equal(response.body.error, error, JSON.stringify(change));
      assert.ok(response.body.suggestion, JSON.stringify(change));
    }
    assert.equal(
      (await poster.post('/v1/job-series', { ...CLEANING, desired_at: '2026-12-01T10:00:00Z' })).status,
      400,
    );
  });

  test('every occurrence starts at the local time across both clock changes', async (t) => {
    const autumn = await setUp(t, new Date('2026-10-01T12:00:00Z'));
    const sundays = await autumn.poster.post('/v1/job-series', {
      ...CLEANING,
      rrule: 'FREQ=WEEKLY;BYDAY=SU;COUNT=3',
      starts_on: '2026-10-18',
      local_time: '02:30',
    });
    assert.equal(sundays.status, 201, sundays.raw);
    // 25 October 2026: 02:30 happens twice; the first (summer time, +02:00) is meant.
    assert.deepEqual(
      sundays.body.occurrences.map((o: Occurrence) => o.starts_at),
      ['2026-10-18T00:30:00.000Z', '2026-10-25T00:30:00.000Z', '2026-11-01T01:30:00.000Z'],
    );
    const spring = await setUp(t, new Date('2027-03-10T12:00:00Z'));
    const march = await spring.poster.post('/v1/job-series', {
      ...CLEANING,
      rrule: 'FREQ=WEEKLY;COUNT=3',
      starts_on: '2027-03-21',
      local_time: '02:30',
    });
    assert.equal(march.status, 201, march.raw);
    // 28 March 2027: 02:30 does not exist; the occurrence is at 03:30 summer time, not dropped.
    assert.deepEqual(
      march.body.occurrences.map((o: Occurrence) => `${o.date} ${o.starts_at}`),
      [
        '2027-03-21 2027-03-21T01:30:00.000Z',
        '2027-03-28 2027-03-28T01:30:00.000Z',
        '2027-04-04 2027-04-04T00:30:00.000Z',
      ],
    );
    const job = await spring.anonymous.get(`/v1/jobs/${march.body.occurrences[1].job_id}`);
    assert.equal(job.body.desired_at, '2027-03-28T01:30:00.000Z');
  });
});

describe("job series: the series' own events", () => {
  test('created, updated (a skip, an edit) and status_changed, to the owner and the helpers standing for it', async (t) => {
    const { app, db, poster } = await setUp(t);
    const helperKey = await createKey(db, { email: 'helper@example.org' });
    const helper = clientFor(app, helperKey.key);
    const series = (await poster.post('/v1/job-series', CLEANING)).body;
    const profile = (await helper.post('/v1/helpers', { ...helperBody('Jonas W.'), categories: ['CLEANING'] })).body;
    const applied = await helper.post(`/v1/job-series/${series.id}/applications`, { helper_id: profile.id });
    assert.equal(applied.status, 201, applied.raw);
    const accepted = await poster.post(`/v1/job-series/${series.id}/applications/${applied.body.id}/accept`);
    assert.equal(accepted.status, 200, accepted.raw);
    assert.equal((await poster.post(`/v1/job-series/${series.id}/occurrences/2026-12-31/skip`)).status, 200);
    assert.equal((await poster.patch(`/v1/job-series/${series.id}`, { price_eur: 50 })).status, 200);
    assert.equal((await poster.post(`/v1/job-series/${series.id}/pause`)).status, 200);
    const events = await db.kysely
      .selectFrom('events')
      .select(['type', 'audience', 'payload'])
      .where('subject_id', '=', series.id)
      .orderBy('id')
      .execute();
    assert.deepEqual(
      events.map((event) => event.type),
      ['job_series.created', 'job_series.updated', 'job_series.updated', 'job_series.status_changed'],
    );
    const owner = await db.kysely
      .selectFrom('accounts')
      .select('id')
      .where('email', '=', 'poster@example.org')
      .executeTakeFirstOrThrow();
    const last = events.at(-1);
    assert.ok(last);
    const audience = JSON.parse(last.audience ?? '[]') as string[];
    assert.deepEqual(audience.sort(), [owner.id, helperKey.accountId].sort(), 'the owner and the standing helper');
    const payload = JSON.parse(last.payload) as { object?: { status: string; price_eur: number }; status?: string };
    const object = payload.object ?? (payload as { status: string; price_eur: number });
    assert.deepEqual([object.status, object.price_eur], ['paused', 50]);
    // The first event went to the owner alone: nobody stood for the series yet.
    assert.equal((JSON.parse(events[0]?.audience ?? '[]') as string[]).length, 1);
    // Erased, the owner takes the series' events with it: the helper's copies of its words go too.
    const erased = await poster.delete('/v1/me', { confirm: 'poster@example.org' });
    assert.ok(erased.status < 300, erased.raw);
    const left = await db.kysely.selectFrom('events').select('id').where('subject_id', '=', series.id).execute();
    assert.equal(left.length, 0);
  });
});
