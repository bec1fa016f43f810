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
  return {
    app,
    db,
    smtp,
    account,
    sweep,
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
    assert.match(declined.text, /2026-11-27 – 2026-11-28/);
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
      const planned = await planReminders(db.kysely, clock());
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
