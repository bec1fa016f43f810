import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createMailer } from '../../src/mail/mailer.js';
import { planNotifications, planReminders, sendDueNotifications } from '../../src/services/notifications.js';
import { buildTestApp, clientFor, createKey, NOW } from '../helpers/app.js';
import { helperBody, JOB_BODY, LISTING_BODY } from '../helpers/bodies.js';
import { startPushService } from '../helpers/push-service.js';
import { type ReceivedMail, startSmtpServer } from '../helpers/smtp.js';

const MINUTE_MS = 60_000;
const BASE_URL = 'http://127.0.0.1:3000';
/** Web push as the tests send it: keys made and stored on first need, endpoints on 127.0.0.1 allowed. */
const PUSH = { keys: null, subject: 'mailto:api@example.org', allowPrivate: true };

/**
 * A test app whose own sweeps wait a minute (the test runs them, as instances would), a real SMTP
 * server on 127.0.0.1, and a clock the test moves.
 */
async function setUp(t: Parameters<typeof buildTestApp>[0], start: Date = NOW, push: object = {}) {
  let now = start;
  const { app, db } = await buildTestApp(t, () => now, {
    EVENTS_POLL_MS: '60000',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  });
  const pushSettings = { ...PUSH, ...push };
  const smtp = await startSmtpServer();
  const mailer = createMailer({ SMTP_URL: smtp.url, MAIL_FROM: 'api@example.org', OUTBOX_DIR: '/nonexistent' });
  t.after(async () => {
    mailer.close();
    await smtp.close();
  });
  const account = async (email: string) => {
    const made = await createKey(db, { email });
    return { ...clientFor(app, made.key), accountId: made.accountId, email };
  };
  /** One round of the sweep, as an instance runs it: plan, then send what is due. */
  const sweep = async () => {
    await planNotifications(db.kysely, now);
    return sendDueNotifications(db.kysely, mailer, { now, baseUrl: BASE_URL, push: pushSettings });
  };
  /** Takes `count` e-mails off the server's queue, unread (what a test does not look at). */
  const drain = async (count: number) => {
    for (let i = 0; i < count; i++) await smtp.next();
  };
  return {
    app,
    db,
    smtp,
    account,
    sweep,
    drain,
    mailer,
    at: (instant: string) => {
      now = new Date(instant);
    },
    advance: (ms: number) => {
      now = new Date(now.getTime() + ms);
    },
    clock: () => now,
  };
}

/** A job of the poster with an application of the helper (its message), returned with their ids. */
async function jobWithApplication(poster: ReturnType<typeof clientFor>, helper: ReturnType<typeof clientFor>) {
  const job = (await poster.post('/v1/jobs', JOB_BODY)).body;
  const profile = (await helper.post('/v1/helpers', helperBody('Mira K.'))).body;
  const application = await helper.post(`/v1/jobs/${job.id}/applications`, { helper_id: profile.id });
  assert.equal(application.status, 201, application.raw);
  return { job, profile, application: application.body };
}

const unsubscribeUrl = (mail: ReceivedMail) => /^<(.+)>$/.exec(mail.headers['list-unsubscribe'] ?? '')?.[1] as string;

describe('notifications by e-mail', () => {
  test('an application, its acceptance and messages reach the other side once, in their language', async (t) => {
    const { smtp, account, sweep, advance } = await setUp(t);
    const poster = await account('poster@example.org');
    const helper = await account('helper@example.org');
    const english = await helper.put('/v1/me/notification-settings', { language: 'en' });
    assert.equal(english.status, 200, english.raw);
    const { job, application } = await jobWithApplication(poster, helper);

    assert.equal(await sweep(), 1);
    const received = await smtp.next();
    assert.deepEqual(received.envelope.to, ['poster@example.org'], 'the poster is told, not the applicant');
    assert.equal(received.headers.subject, 'Neue Bewerbung für „Hecke schneiden“ - Karlsruhe Marketplace');
    assert.equal(received.headers['content-language'], 'de');
    assert.match(received.text, /^Guten Tag,/);
    assert.ok(received.text.includes(`${BASE_URL}/v1/jobs/${job.id}`));
    assert.match(received.html ?? '', /<html lang="de">/);
    assert.equal(received.headers['list-unsubscribe-post'], 'List-Unsubscribe=One-Click');
    assert.match(unsubscribeUrl(received), /^http:\/\/127\.0\.0\.1:3000\/v1\/notifications\/unsubscribe\?token=/);
    assert.equal(await sweep(), 0, 'nothing twice');

    const accepted = await poster.post(`/v1/jobs/${job.id}/applications/${application.id}/accept`);
    assert.equal(accepted.status, 200, accepted.raw);
    assert.equal(await sweep(), 1);
    const decision = await smtp.next();
    assert.deepEqual(decision.envelope.to, ['helper@example.org']);
    assert.equal(decision.headers.subject, 'Accepted: “Hecke schneiden” - Karlsruhe Marketplace');
    assert.equal(decision.headers['content-language'], 'en');
    assert.match(decision.text, /^Hello,/);

    // Three messages in a row: one e-mail five minutes after the first, counting all three.
    const opened = await helper.post('/v1/conversations', {
      about: { type: 'application', id: application.id },
      text: 'Soll ich eine Leiter mitbringen?',
    });
    assert.equal(opened.status, 201, opened.raw);
    advance(MINUTE_MS);
    for (const text of ['Und Handschuhe?', 'Bis Samstag!']) {
      assert.equal((await helper.post(`/v1/conversations/${opened.body.id}/messages`, { text })).status, 201);
    }
    assert.equal(await sweep(), 0, 'a message waits for the ones after it');
    advance(4 * MINUTE_MS);
    assert.equal(await sweep(), 1);
    const messages = await smtp.next();
    assert.deepEqual(messages.envelope.to, ['poster@example.org']);
    assert.equal(messages.headers.subject, '3 neue Nachrichten zu „Hecke schneiden“ - Karlsruhe Marketplace');
    assert.ok(!messages.text.includes('Leiter'), 'the e-mail names the conversation, never what was written');
    advance(10 * MINUTE_MS);
    assert.equal(await sweep(), 0);
    assert.equal(smtp.received.length, 3);
  });

  test('one-click unsubscribe works without signing in and stops only its kind', async (t) => {
    const { smtp, account, sweep, app, advance } = await setUp(t);
    const poster = await account('poster@example.org');
    const helper = await account('helper@example.org');
    const { application } = await jobWithApplication(poster, helper);
    await sweep();
    const url = new URL(unsubscribeUrl(await smtp.next()));
    const path = `${url.pathname}${url.search}`;

    // GET asks and changes nothing (a link scanner stops nothing).
    const page = await app.inject({ method: 'GET', url: path });
    assert.equal(page.statusCode, 200);
    assert.match(page.headers['content-type'] as string, /^text\/html/);
    assert.match(page.body, /<html lang="de">/);
    assert.match(page.body, /E-Mails zu Bewerbungen an diese Adresse abbestellen\?/);
    assert.equal((await poster.get('/v1/me/notification-settings')).body.kinds.applications.email, true);

    // The mail program's RFC 8058 POST: no key, no cookie.
    const done = await app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    assert.equal(done.statusCode, 200, done.body);
    assert.match(done.body, /keine E-Mails zu Bewerbungen mehr/);
    const settings = (await poster.get('/v1/me/notification-settings')).body;
    assert.deepEqual(settings.kinds, {
      messages: { email: true, push: true, digest: false },
      applications: { email: false, push: true, digest: false },
      bookings: { email: true, push: true, digest: false },
      payments: { email: true, push: true, digest: false },
      reminders: { email: true, push: true, digest: false },
    });

    // Another application: no e-mail; a message still comes.
    const other = await account('other@example.org');
    const job2 = (await poster.post('/v1/jobs', JOB_BODY)).body;
    const profile2 = (await other.post('/v1/helpers', helperBody('Ole P.'))).body;
    assert.equal((await other.post(`/v1/jobs/${job2.id}/applications`, { helper_id: profile2.id })).status, 201);
    await helper.post('/v1/conversations', { about: { type: 'application', id: application.id }, text: 'Hallo!' });
    advance(5 * MINUTE_MS);
    assert.equal(await sweep(), 1);
    assert.match((await smtp.next()).headers.subject ?? '', /Neue Nachricht/);

    // A token changed by one character, or of another kind, is refused with a page, never a 500.
    const forged = path.replace(/.(?=$)/, (c) => (c === 'A' ? 'B' : 'A'));
    const refused = await app.inject({
      method: 'POST',
      url: forged,
      payload: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(refused.statusCode, 404);
    assert.match(refused.body, /nicht \(mehr\) gültig/);
    const otherKind = path.replace('.applications.', '.messages.');
    assert.equal(
      (await app.inject({ method: 'POST', url: otherKind })).statusCode,
      404,
      'the signature covers the kind',
    );
    assert.equal((await poster.get('/v1/me/notification-settings')).body.kinds.messages.email, true);
  });

  test('quiet hours hold an e-mail: a message at 23:00 with quiet hours 22-7 arrives at 7:00', async (t) => {
    const { smtp, account, sweep, at } = await setUp(t);
    const poster = await account('poster@example.org');
    const helper = await account('helper@example.org');
    const quiet = await poster.put('/v1/me/notification-settings', { quiet_hours: { start: '22:00', end: '07:00' } });
    assert.equal(quiet.status, 200, quiet.raw);
    assert.deepEqual(quiet.body.quiet_hours, { start: '22:00', end: '07:00' });
    const { application } = await jobWithApplication(poster, helper);
    await sweep();
    await smtp.next();
    at('2026-11-20T22:00:00.000Z'); // 23:00 in Karlsruhe (winter time)
    await helper.post('/v1/conversations', { about: { type: 'application', id: application.id }, text: 'Noch wach?' });
    assert.equal(await sweep(), 0);
    at('2026-11-21T05:59:00.000Z'); // 06:59
    assert.equal(await sweep(), 0, 'still quiet');
    at('2026-11-21T06:00:00.000Z'); // 07:00
    assert.equal(await sweep(), 1);
    assert.match((await smtp.next()).headers.subject ?? '', /Neue Nachricht/);
  });

  test('a digest folds a day of notifications into one e-mail at digest_time', async (t) => {
    const { smtp, account, sweep, at } = await setUp(t);
    const poster = await account('poster@example.org');
    const changed = await poster.put('/v1/me/notification-settings', {
      digest_time: '18:00',
      kinds: { applications: { email: false, digest: true } },
    });
    assert.equal(changed.status, 200, changed.raw);
    assert.deepEqual(changed.body.kinds.applications, { email: false, push: true, digest: true });
    assert.deepEqual(changed.body.kinds.messages, { email: true, push: true, digest: false }, 'the other kinds stay');
    for (const email of ['a@example.org', 'b@example.org']) {
      await jobWithApplication(poster, await account(email));
    }
    assert.equal(await sweep(), 0, 'no e-mail at once');
    at('2026-11-20T16:59:00.000Z');
    assert.equal(await sweep(), 0);
    at('2026-11-20T17:00:00.000Z'); // 18:00 in Karlsruhe
    assert.equal(await sweep(), 1);
    const digest = await smtp.next();
    assert.equal(digest.headers.subject, 'Ihre tägliche Übersicht: 2 Benachrichtigungen - Karlsruhe Marketplace');
    assert.equal(digest.text.match(/Neue Bewerbung|Eine Helferin/g)?.length, 2);
    assert.match(unsubscribeUrl(digest), /\.digest\./);
    assert.equal(await sweep(), 0);
  });

  test('bookings: the owner is told of a request, the renter of the decision', async (t) => {
    const { smtp, account, sweep } = await setUp(t);
    const owner = await account('owner@example.org');
    const renter = await account('renter@example.org');
    await renter.put('/v1/me/notification-settings', { language: 'en' });
    const listing = (await owner.post('/v1/listings', { ...LISTING_BODY, instant_booking: false })).body;
    const booking = await renter.post(`/v1/listings/${listing.id}/bookings`, {
      start_date: '2026-11-27',
      end_date: '2026-11-28',
    });
    assert.equal(booking.status, 201, booking.raw);
    assert.equal(await sweep(), 1);
    const request = await smtp.next();
    assert.deepEqual(request.envelope.to, ['owner@example.org']);
    assert.match(request.headers.subject ?? '', /^Buchungsanfrage für „Bierzeltgarnitur“/);
    assert.equal((await owner.post(`/v1/bookings/${booking.body.id}/decline`)).status, 200);
    assert.equal(await sweep(), 1);
    const declined = await smtp.next();
    assert.deepEqual(declined.envelope.to, ['renter@example.org']);
    assert.match(declined.headers.subject ?? '', /^Booking declined: “Bierzeltgarnitur”/);
    assert.match(declined.text, /27 Nov 2026 – 28 Nov 2026/);
  });

  test('reminders: pick-up tomorrow to both sides, return tomorrow and overdue (once) to the renter', async (t) => {
    const { smtp, account, sweep, at, db, mailer, clock } = await setUp(t);
    const owner = await account('owner@example.org');
    const renter = await account('renter@example.org');
    await renter.put('/v1/me/notification-settings', { language: 'en' });
    const listing = (await owner.post('/v1/listings', { ...LISTING_BODY, instant_booking: true })).body;
    const booking = await renter.post(`/v1/listings/${listing.id}/bookings`, {
      start_date: '2026-11-22',
      end_date: '2026-11-24',
    });
    assert.equal(booking.status, 201, booking.raw);
    await sweep(); // the booking's own e-mail to the owner: booked at once (instant booking)
    assert.match((await smtp.next()).headers.subject ?? '', /^Neue Buchung: „Bierzeltgarnitur“/);
    const remind = async () => {
      const planned = await planReminders(db.kysely, clock(), { reviewWindowDays: 14 });
      await sendDueNotifications(db.kysely, mailer, { now: clock(), baseUrl: BASE_URL, push: PUSH });
      return planned;
    };
    assert.equal(await remind(), 0, 'nothing the day before the day before');
    at('2026-11-21T08:00:00.000Z');
    assert.equal(await remind(), 2);
    const pickups = [await smtp.next(), await smtp.next()];
    assert.deepEqual(pickups.map((mail) => mail.envelope.to[0]).sort(), ['owner@example.org', 'renter@example.org']);
    const toRenter = pickups.find((mail) => mail.envelope.to[0] === 'renter@example.org');
    assert.equal(toRenter?.headers.subject, 'Tomorrow: pick-up of “Bierzeltgarnitur” - Karlsruhe Marketplace');
    assert.match(unsubscribeUrl(toRenter as ReceivedMail), /\.reminders\./);
    assert.equal(await remind(), 0, 'once');
    at('2026-11-22T09:00:00.000Z');
    assert.equal((await owner.post(`/v1/bookings/${booking.body.id}/pick-up`)).status, 200);
    at('2026-11-23T08:00:00.000Z');
    assert.equal(await remind(), 1);
    const back = await smtp.next();
    assert.deepEqual(back.envelope.to, ['renter@example.org']);
    assert.match(back.headers.subject ?? '', /^Tomorrow: return of “Bierzeltgarnitur”/);
    at('2026-11-25T08:00:00.000Z');
    assert.equal(await remind(), 1);
    assert.match((await smtp.next()).headers.subject ?? '', /^Overdue: “Bierzeltgarnitur”/);
    at('2026-11-26T08:00:00.000Z');
    assert.equal(await remind(), 0, 'overdue is said once');
  });

  test('applications rejected in bulk: a job staffed tells the others, as a rejection one by one would', async (t) => {
    const { smtp, account, sweep } = await setUp(t);
    const poster = await account('poster@example.org');
    const chosen = await account('chosen@example.org');
    const other = await account('other@example.org');
    await other.put('/v1/me/notification-settings', { language: 'en' });
    const { job, application } = await jobWithApplication(poster, chosen);
    const profile = (await other.post('/v1/helpers', helperBody('Ole P.'))).body;
    assert.equal((await other.post(`/v1/jobs/${job.id}/applications`, { helper_id: profile.id })).status, 201);
    assert.equal(await sweep(), 2, 'two applications to the poster');
    await smtp.next();
    await smtp.next();
    // One helper is needed: accepting the first rejects the other at once; both hear of it.
    assert.equal((await poster.post(`/v1/jobs/${job.id}/applications/${application.id}/accept`)).status, 200);
    assert.equal(await sweep(), 2);
    const mails = [await smtp.next(), await smtp.next()];
    const to = (email: string) => mails.find((mail) => mail.envelope.to[0] === email);
    assert.match(to('chosen@example.org')?.headers.subject ?? '', /^Zusage: „Hecke schneiden“/);
    assert.match(to('other@example.org')?.headers.subject ?? '', /^Not this time: “Hecke schneiden”/);
  });

  test('money that needs someone, and extensions: told to the side whose turn it is', async (t) => {
    const { drain, smtp, account, sweep, advance } = await setUp(t);
    const owner = await account('owner@example.org');
    const renter = await account('renter@example.org');
    await renter.put('/v1/me/notification-settings', { language: 'en' });
    const listing = (await owner.post('/v1/listings', { ...LISTING_BODY, instant_booking: true })).body;
    const booked = await renter.post(`/v1/listings/${listing.id}/bookings`, {
      start_date: '2026-11-21',
      end_date: '2026-11-22',
    });
    assert.equal(booked.status, 201, booked.raw);
    assert.equal(
      await sweep(),
      1,
      'the booking to the owner; the rent and the deposit owed are no e-mail of their own',
    );
    assert.match((await smtp.next()).headers.subject ?? '', /^Neue Buchung/);
    const payments = (await renter.get('/v1/payments?role=payer')).body.data as { id: string; kind: string }[];
    const rent = payments.find((payment) => payment.kind === 'rent')?.id as string;
    // The renter marks the rent paid: the owner is asked to confirm it, in German, with the amount.
    assert.equal((await renter.post(`/v1/payments/${rent}/paid`)).status, 200);
    assert.equal(await sweep(), 1);
    const paid = await smtp.next();
    assert.deepEqual(paid.envelope.to, ['owner@example.org']);
    assert.equal(
      paid.headers.subject,
      'Als bezahlt gemeldet: 16,00\u00a0€ für „Bierzeltgarnitur“ - Karlsruhe Marketplace',
    );
    assert.ok(paid.text.includes(`${BASE_URL}/v1/payments/${rent}`));
    assert.equal((await owner.post(`/v1/payments/${rent}/received`)).status, 200);
    assert.equal(await sweep(), 0, 'confirmed: nothing waits for anyone');
    // The deposit handed over and confirmed; its release is due at the return, not asked for now.
    const deposit = payments.find((payment) => payment.kind === 'deposit')?.id as string;
    assert.equal((await renter.post(`/v1/payments/${deposit}/paid`)).status, 200);
    await drain(await sweep());
    assert.equal((await owner.post(`/v1/payments/${deposit}/received`)).status, 200);
    assert.equal(await sweep(), 0, 'a deposit received asks nothing yet');

    // Instant booking accepts an extension at once: the owner learns the booking is longer.
    advance(24 * 60 * MINUTE_MS);
    assert.equal((await owner.post(`/v1/bookings/${booked.body.id}/pick-up`)).status, 200);
    const extended = await renter.post(`/v1/bookings/${booked.body.id}/extension-requests`, { until: '2026-11-23' });
    assert.equal(extended.status, 201, extended.raw);
    assert.equal(extended.body.status, 'accepted');
    assert.equal(await sweep(), 1);
    const longer = await smtp.next();
    assert.deepEqual(longer.envelope.to, ['owner@example.org']);
    assert.match(longer.headers.subject ?? '', /^Buchung verlängert: „Bierzeltgarnitur“/);
    assert.match(longer.text, /bis 23\.11\.2026 gebucht/);

    // Returned, a damage claim: the renter is asked to answer it.
    advance(3 * 24 * 60 * MINUTE_MS);
    assert.equal((await owner.post(`/v1/bookings/${booked.body.id}/return`)).status, 200);
    await drain(await sweep());
    const claim = await owner.post(`/v1/bookings/${booked.body.id}/claims`, {
      amount_eur: 12.5,
      text: 'Eine Bank hat einen Riss im Sitzbrett.',
      photos: ['https://example.org/riss.jpg'],
    });
    assert.equal(claim.status, 201, claim.raw);
    assert.equal(await sweep(), 1);
    const answer = await smtp.next();
    assert.deepEqual(answer.envelope.to, ['renter@example.org']);
    assert.equal(answer.headers.subject, 'Damage claim: “Bierzeltgarnitur” - Karlsruhe Marketplace');
    assert.match(answer.text, /claims €12\.50 from your deposit/);
    assert.ok(answer.text.includes(`${BASE_URL}/v1/claims/${claim.body.id}`));
  });

  test('an extension asked of an owner who decides: asked to the owner, declined to the renter', async (t) => {
    const { drain, smtp, account, sweep, advance } = await setUp(t);
    const owner = await account('owner@example.org');
    const renter = await account('renter@example.org');
    await renter.put('/v1/me/notification-settings', { language: 'en' });
    const listing = (await owner.post('/v1/listings', { ...LISTING_BODY, instant_booking: false })).body;
    const booked = await renter.post(`/v1/listings/${listing.id}/bookings`, {
      start_date: '2026-11-24',
      end_date: '2026-11-25',
    });
    assert.equal((await owner.post(`/v1/bookings/${booked.body.id}/confirm`)).status, 200);
    await drain(await sweep());
    const asked = await renter.post(`/v1/bookings/${booked.body.id}/extension-requests`, { until: '2026-11-26' });
    assert.equal(asked.status, 201, asked.raw);
    assert.equal(await sweep(), 1);
    const request = await smtp.next();
    assert.deepEqual(request.envelope.to, ['owner@example.org']);
    assert.match(request.headers.subject ?? '', /^Verlängerung angefragt: „Bierzeltgarnitur“/);
    advance(30 * MINUTE_MS);
    const path = `/v1/bookings/${booked.body.id}/extension-requests/${asked.body.id}/decline`;
    assert.equal((await owner.post(path)).status, 200);
    assert.equal(await sweep(), 1);
    const declined = await smtp.next();
    assert.deepEqual(declined.envelope.to, ['renter@example.org']);
    assert.match(declined.headers.subject ?? '', /^Extension declined: “Bierzeltgarnitur”/);
    assert.match(declined.text, /until 26 Nov 2026 was declined/);
  });

  test('a standing helper excused from a series date: the other side is told', async (t) => {
    const { drain, smtp, account, sweep, advance } = await setUp(t);
    const poster = await account('poster@example.org');
    const helper = await account('helper@example.org');
    await helper.put('/v1/me/notification-settings', { language: 'en' });
    const series = await poster.post('/v1/job-series', {
      ...JOB_BODY,
      title: 'Wohnung putzen',
      category: 'CLEANING',
      rrule: 'FREQ=WEEKLY;BYDAY=TH;COUNT=6',
      starts_on: '2026-11-26',
      local_time: '09:00',
    });
    assert.equal(series.status, 201, series.raw);
    const profile = (await helper.post('/v1/helpers', { ...helperBody('Mira K.'), categories: ['CLEANING'] })).body;
    const url = `/v1/job-series/${series.body.id}/applications`;
    const applied = (await helper.post(url, { helper_id: profile.id })).body;
    assert.equal((await poster.post(`${url}/${applied.id}/accept`)).status, 200);
    await drain(await sweep());
    assert.equal((await helper.post(`${url}/${applied.id}/excuse`, { date: '2026-12-10' })).status, 200);
    assert.equal(await sweep(), 1);
    const toPoster = await smtp.next();
    assert.deepEqual(toPoster.envelope.to, ['poster@example.org']);
    assert.equal(
      toPoster.headers.subject,
      'Vertretung gesucht: „Wohnung putzen“ am 10.12.2026 - Karlsruhe Marketplace',
    );
    assert.ok(toPoster.text.includes(`${BASE_URL}/v1/job-series/${series.body.id}`));
    advance(30 * MINUTE_MS);
    assert.equal((await poster.post(`${url}/${applied.id}/excuse`, { date: '2026-12-17' })).status, 200);
    assert.equal(await sweep(), 1);
    const toHelper = await smtp.next();
    assert.deepEqual(toHelper.envelope.to, ['helper@example.org']);
    assert.match(toHelper.headers.subject ?? '', /^Not needed on 17 Dec 2026: “Wohnung putzen”/);
  });

  test('a review window closing in two days: a reminder to each side that has not reviewed, once', async (t) => {
    const { drain, smtp, account, sweep, at, db, mailer, clock } = await setUp(t);
    const owner = await account('owner@example.org');
    const renter = await account('renter@example.org');
    await renter.put('/v1/me/notification-settings', { language: 'en' });
    const listing = (await owner.post('/v1/listings', { ...LISTING_BODY, instant_booking: true })).body;
    const booked = await renter.post(`/v1/listings/${listing.id}/bookings`, {
      start_date: '2026-11-21',
      end_date: '2026-11-22',
    });
    at('2026-11-21T09:00:00.000Z');
    assert.equal((await owner.post(`/v1/bookings/${booked.body.id}/pick-up`)).status, 200);
    at('2026-11-22T16:00:00.000Z');
    assert.equal((await owner.post(`/v1/bookings/${booked.body.id}/return`)).status, 200);
    await drain(await sweep());
    const remind = async () => {
      const planned = await planReminders(db.kysely, clock(), { reviewWindowDays: 14 });
      await sendDueNotifications(db.kysely, mailer, { now: clock(), baseUrl: BASE_URL, push: PUSH });
      return planned;
    };
    // The window closes on 6 December at 16:00 UTC (14 days after the return). The owner keeps quiet
    // hours 17:00-18:00: their reminder waits, they review meanwhile, and it is not sent.
    await owner.put('/v1/me/notification-settings', { quiet_hours: { start: '17:00', end: '18:00' } });
    at('2026-12-04T15:00:00.000Z');
    assert.equal(await remind(), 0, 'more than two days ahead');
    at('2026-12-04T16:30:00.000Z');
    assert.equal(await remind(), 2, 'both sides: neither has reviewed');
    const reminder = await smtp.next();
    assert.deepEqual(reminder.envelope.to, ['renter@example.org'], 'the owner is in quiet hours');
    assert.equal(reminder.headers.subject, 'Review “Bierzeltgarnitur” by 6 Dec 2026, 17:00 - Karlsruhe Marketplace');
    assert.match(reminder.text, /closes on 6 Dec 2026, 17:00/);
    const arrived = smtp.received.length;
    at('2026-12-04T16:45:00.000Z');
    const review = await owner.post(`/v1/bookings/${booked.body.id}/reviews`, { rating: 5, text: 'Alles bestens.' });
    assert.equal(review.status, 201, review.raw);
    at('2026-12-04T17:05:00.000Z');
    assert.equal(await remind(), 0, 'once');
    const waited = await db.kysely
      .selectFrom('notifications')
      .select(['status', 'account_id'])
      .where('event_type', '=', 'reminder.review')
      .where('account_id', '=', owner.accountId)
      .executeTakeFirstOrThrow();
    assert.equal(waited.status, 'dropped', 'reviewed while it waited: not sent');
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(smtp.received.length, arrived, 'nothing more arrived');
  });

  test('web push: a subscribed browser gets the notification encrypted for it, signed, in the language; gone is dropped', async (t) => {
    const service = await startPushService();
    t.after(() => service.close());
    const { smtp, account, sweep, app } = await setUp(t, NOW, { agent: service.agent });
    const poster = await account('poster@example.org');
    const helper = await account('helper@example.org');
    const before = await poster.get('/v1/me/push-subscriptions');
    assert.equal(before.status, 200, before.raw);
    assert.deepEqual(before.body.data, []);
    assert.match(before.body.application_server_key, /^[A-Za-z0-9_-]{87}$/, 'the VAPID public key to subscribe with');
    assert.equal(
      (await poster.get('/v1/me/push-subscriptions')).body.application_server_key,
      before.body.application_server_key,
      'made once, stored',
    );
    const browser = service.subscribe();
    const subscribed = await poster.post('/v1/me/push-subscriptions', browser);
    assert.equal(subscribed.status, 201, subscribed.raw);
    assert.match(subscribed.body.id, /^psub_[0-9a-f]{16}$/);
    assert.equal(subscribed.body.endpoint_host, new URL(browser.endpoint).host);
    assert.ok(!subscribed.raw.includes(browser.keys.auth), 'the keys are not answered back');

    const { job } = await jobWithApplication(poster, helper);
    assert.equal(await sweep(), 2, 'an e-mail and a push');
    await smtp.next();
    assert.equal(service.received.length, 1);
    const push = service.received[0];
    assert.equal(push?.headers['content-encoding'], 'aes128gcm');
    assert.deepEqual(push?.message, {
      title: 'Neue Bewerbung für „Hecke schneiden“',
      body: 'Eine Helferin oder ein Helfer hat sich für Ihren Auftrag „Hecke schneiden“ beworben. Nehmen Sie die Bewerbung an oder lehnen Sie sie ab.',
      url: `${BASE_URL}/v1/jobs/${job.id}`,
      kind: 'applications',
    });
    const listed = (await poster.get('/v1/me/push-subscriptions')).body.data;
    assert.equal(listed[0].last_error, null);
    assert.ok(listed[0].last_sent_at);

    // Only push for applications: the e-mail off, the push still goes.
    await poster.put('/v1/me/notification-settings', { kinds: { applications: { email: false } } });
    await jobWithApplication(poster, await account('other@example.org'));
    assert.equal(await sweep(), 1);
    assert.equal(service.received.length, 2);
    assert.equal(smtp.received.length, 1);

    // The browser unsubscribed: the push service answers 410, the subscription goes.
    service.gone(browser.endpoint);
    await jobWithApplication(poster, await account('third@example.org'));
    await sweep();
    assert.deepEqual((await poster.get('/v1/me/push-subscriptions')).body.data, []);

    // Refused: not https, keys that are no P-256 key; someone else's id.
    const plain = await poster.post('/v1/me/push-subscriptions', { ...browser, endpoint: 'http://127.0.0.1:9/push/x' });
    assert.equal(plain.status, 400, plain.raw);
    assert.equal(plain.body.param, 'endpoint');
    const badKey = await poster.post('/v1/me/push-subscriptions', {
      ...service.subscribe(),
      keys: { p256dh: 'A'.repeat(87), auth: browser.keys.auth },
    });
    assert.equal(badKey.status, 400, badKey.raw);
    assert.equal(badKey.body.param, 'keys.p256dh');
    const again = await poster.post('/v1/me/push-subscriptions', service.subscribe());
    assert.equal(again.status, 201);
    assert.equal((await helper.delete(`/v1/me/push-subscriptions/${again.body.id}`)).status, 404);
    assert.equal((await poster.delete(`/v1/me/push-subscriptions/${again.body.id}`)).status, 204);
    void app;
  });

  test('two instances plan and send at once: each e-mail goes once', async (t) => {
    const { smtp, account, db, mailer, clock } = await setUp(t);
    const poster = await account('poster@example.org');
    for (const email of ['a@example.org', 'b@example.org', 'c@example.org']) {
      await jobWithApplication(poster, await account(email));
    }
    await Promise.all([planNotifications(db.kysely, clock()), planNotifications(db.kysely, clock())]);
    const sent = await Promise.all([
      sendDueNotifications(db.kysely, mailer, { now: clock(), baseUrl: BASE_URL, push: PUSH }),
      sendDueNotifications(db.kysely, mailer, { now: clock(), baseUrl: BASE_URL, push: PUSH }),
    ]);
    assert.equal(sent[0] + sent[1], 3);
    const rows = await db.kysely.selectFrom('notifications').select(['status', 'channel']).execute();
    assert.deepEqual(
      rows.map((row) => `${row.channel} ${row.status}`),
      ['email sent', 'email sent', 'email sent'],
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(smtp.received.length, 3);
  });

  test('a mail server that fails: the e-mail is tried again later, and arrives once', async (t) => {
    const { smtp, account, db, clock, advance } = await setUp(t);
    const poster = await account('poster@example.org');
    await jobWithApplication(poster, await account('helper@example.org'));
    const broken = createMailer({ SMTP_URL: 'smtp://127.0.0.1:9', MAIL_FROM: 'api@example.org', OUTBOX_DIR: '/x' });
    t.after(() => broken.close());
    await planNotifications(db.kysely, clock());
    assert.equal(await sendDueNotifications(db.kysely, broken, { now: clock(), baseUrl: BASE_URL, push: PUSH }), 0);
    const failed = await db.kysely
      .selectFrom('notifications')
      .select(['status', 'attempts', 'last_error'])
      .executeTakeFirstOrThrow();
    assert.equal(failed.status, 'pending');
    assert.equal(failed.attempts, 1);
    assert.ok(failed.last_error);
    const working = createMailer({ SMTP_URL: smtp.url, MAIL_FROM: 'api@example.org', OUTBOX_DIR: '/x' });
    t.after(() => working.close());
    assert.equal(
      await sendDueNotifications(db.kysely, working, { now: clock(), baseUrl: BASE_URL, push: PUSH }),
      0,
      'not before its retry time',
    );
    advance(MINUTE_MS);
    assert.equal(await sendDueNotifications(db.kysely, working, { now: clock(), baseUrl: BASE_URL, push: PUSH }), 1);
    assert.equal(smtp.received.length, 1);
  });

  test('settings: the defaults, partial changes, and a clear 400 for a time that is none', async (t) => {
    const { account, app } = await setUp(t);
    const person = await account('person@example.org');
    const defaults = await person.get('/v1/me/notification-settings');
    assert.equal(defaults.status, 200, defaults.raw);
    assert.deepEqual(defaults.body, {
      language: 'de',
      quiet_hours: null,
      digest_time: '08:00',
      kinds: {
        messages: { email: true, push: true, digest: false },
        applications: { email: true, push: true, digest: false },
        bookings: { email: true, push: true, digest: false },
        payments: { email: true, push: true, digest: false },
        reminders: { email: true, push: true, digest: false },
      },
    });
    const bad = await person.put('/v1/me/notification-settings', { quiet_hours: { start: '22:00', end: '22:00' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.param, 'quiet_hours.end');
    const badTime = await person.put('/v1/me/notification-settings', { digest_time: '25:00' });
    assert.equal(badTime.status, 400, badTime.raw);
    const unknown = await person.put('/v1/me/notification-settings', { kinds: { gossip: { email: true } } });
    assert.equal(unknown.status, 400, unknown.raw);
    const off = await person.put('/v1/me/notification-settings', {
      quiet_hours: null,
      kinds: { bookings: { email: false } },
    });
    assert.equal(off.status, 200, off.raw);
    assert.deepEqual(off.body.kinds.bookings, { email: false, push: true, digest: false });
    assert.equal((await clientFor(app, null).get('/v1/me/notification-settings')).status, 401);
  });

  test('an erased account takes its settings and notifications with it; what was due for it is not sent', async (t) => {
    const { account, sweep, db, smtp } = await setUp(t);
    const poster = await account('poster@example.org');
    const helper = await account('helper@example.org');
    const { application } = await jobWithApplication(poster, helper);
    await sweep();
    await smtp.next();
    await helper.post('/v1/conversations', { about: { type: 'application', id: application.id }, text: 'Hallo!' });
    await sweep();
    const erased = await poster.delete('/v1/me', { confirm: 'poster@example.org' });
    assert.ok(erased.status < 300, erased.raw);
    for (const table of ['notifications', 'notification_settings'] as const) {
      const rows = await db.kysely.selectFrom(table).selectAll().where('account_id', '=', poster.accountId).execute();
      assert.deepEqual(rows, [], table);
    }
    assert.equal(smtp.received.length, 1);
  });
});
