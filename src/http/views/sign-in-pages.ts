import { createHash } from 'node:crypto';
import type { AccountType } from '../../domain/key-request.js';
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KINDS,
  type NotificationChannel,
  type NotificationKind,
  type NotificationPreferences,
} from '../../domain/notifications.js';
import type { PageLanguage } from '../../mail/sign-in-email.js';
import { html, SafeHtml } from './html.js';

/**
 * The pages people sign up and sign in with (issue 31): one language at a time, chosen by the
 * visitor (a link on every page) or Accept-Language; no script, every form with its CSRF token.
 */

const STYLE = new SafeHtml(`
:root{color-scheme:light dark;--fg:#1b1f24;--muted:#4f5965;--bg:#f4f6f8;--card:#fff;--line:#6b7580;--accent:#0b5cad;--error:#b3261e;--ok:#1e6b34}
@media (prefers-color-scheme:dark){:root{--fg:#e8eaed;--muted:#b2bac2;--bg:#15181c;--card:#1f2328;--line:#8a939c;--accent:#7cb7ff;--error:#ff8a80;--ok:#8fd19e}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
header,main{max-width:40rem;margin:0 auto;padding:1rem 2rem}
header{display:flex;justify-content:space-between;gap:1rem;flex-wrap:wrap}
main{margin-bottom:2rem;background:var(--card);border-radius:12px;box-shadow:0 1px 4px rgb(0 0 0/.12);padding:2rem}
@media (max-width:42rem){main{border-radius:0;padding:1.25rem}}
h1{margin:0 0 .75rem;font-size:1.6rem;line-height:1.2}
a{color:var(--accent)}
.field{margin:0 0 1.25rem;padding:0;border:0}
label,legend{display:block;font-weight:600;padding:0}
.hint{margin:.1rem 0 .35rem;color:var(--muted);font-size:.9rem}
input[type=text],input[type=email]{width:100%;padding:.55rem .65rem;font:inherit;color:inherit;background:var(--card);border:2px solid var(--line);border-radius:6px}
input.code{max-width:10rem;letter-spacing:.3em;font-size:1.3rem}
input:focus,button:focus,a:focus{outline:3px solid var(--accent);outline-offset:2px}
.choice{display:flex;gap:.5rem;align-items:center;margin:.3rem 0}
.choice input{width:1.2rem;height:1.2rem;accent-color:var(--accent)}
.choice label{font-weight:400}
.error{margin:.1rem 0 .35rem;color:var(--error);font-weight:600}
.notice{border-left:4px solid var(--accent);padding:.5rem 1rem;margin:1rem 0}
.notice.error{border-color:var(--error)}.notice.ok{border-color:var(--ok)}
button{font:inherit;font-weight:600;color:#fff;background:var(--accent);border:2px solid var(--accent);border-radius:6px;padding:.55rem 1.2rem;cursor:pointer}
button.secondary{color:var(--accent);background:transparent}
@media (prefers-color-scheme:dark){button{color:#0b1a2b}button.secondary{color:var(--accent)}}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem}
dt{font-weight:600}dd{margin:0}
table{width:100%;border-collapse:collapse;margin:1rem 0}
th,td{text-align:left;padding:.4rem .3rem;border-bottom:1px solid var(--line);vertical-align:top}
.inline{display:inline}
textarea,select,input[type=number],input[type=search],input[type=date],input[type=time]{width:100%;padding:.55rem .65rem;font:inherit;color:inherit;background:var(--card);border:2px solid var(--line);border-radius:6px}
textarea:focus,select:focus,input:focus{outline:3px solid var(--accent);outline-offset:2px}
main.wide,header.wide{max-width:68rem}
nav ul{list-style:none;margin:0 0 1rem;padding:0;display:flex;flex-wrap:wrap;gap:.4rem 1.2rem}
article{border-top:1px solid var(--line);padding:.8rem 0}
.quote{white-space:pre-wrap;border-left:4px solid var(--line);padding:.3rem .8rem;margin:.5rem 0}
.actions{display:flex;flex-wrap:wrap;gap:1.5rem;align-items:flex-start}
.actions form{flex:1 1 18rem}
figure{margin:1rem 0}
svg text{fill:var(--fg)}
`);

/** The page style's hash, for a Content-Security-Policy that allows this style and no other inline one. */
export const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE.value).digest('base64')}'`;

export type Words = { de: string; en: string };

/** A suspended or erased account, refused at sign-in whatever the way (a code or a passkey). */
export const CANNOT_SIGN_IN: Words = {
  de: 'Dieses Konto kann sich nicht anmelden (es ist gesperrt oder gelöscht).',
  en: 'This account cannot sign in (it is suspended or erased).',
};

/** What a page says above its form when something happened. */
export interface PageNotice extends Words {
  kind: 'ok' | 'error' | 'info';
  /** Words in English whatever the page's language (a service's refusal), marked lang="en". */
  english?: string;
}

export interface PageContext {
  language: PageLanguage;
  /** The path the language links point to (the page's own, without a query). */
  path: string;
  csrf: string;
  /** A page of tables (the console): a wider column. */
  wide?: boolean;
}

const OTHER: Record<PageLanguage, { code: PageLanguage; name: string }> = {
  de: { code: 'en', name: 'English' },
  en: { code: 'de', name: 'Deutsch' },
};

/** The passkey script and the WebAuthn library it uses, from this site; the page works without them. */
const PASSKEY_SCRIPTS = html`<script src="/assets/webauthn.js" defer></script>
<script src="/assets/passkeys.js" defer></script>`;

export function layout(page: PageContext, title: Words, body: SafeHtml, failed = false, scripts = false): string {
  const lang = page.language;
  const other = OTHER[lang];
  const prefix = failed ? (lang === 'de' ? 'Fehler: ' : 'Error: ') : '';
  return html`<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${prefix}${title[lang]} – Karlsruhe Marketplace</title>
<style>${STYLE}</style>
${scripts && PASSKEY_SCRIPTS}
</head>
<body>
<header${page.wide && html` class="wide"`}><span>Karlsruhe Marketplace</span><nav aria-label="${lang === 'de' ? 'Sprache' : 'Language'}"><a href="${page.path}?lang=${other.code}" hreflang="${other.code}" lang="${other.code}">${other.name}</a></nav></header>
<main${page.wide && html` class="wide"`}>
<h1>${title[lang]}</h1>
${body}
</main>
</body>
</html>
`.value;
}

/** The words in the page's language. */
export const say = (page: PageContext, words: Words) => words[page.language];

export function notice(page: PageContext, shown: PageNotice | undefined): SafeHtml | false {
  return (
    shown !== undefined &&
    html`<div class="notice ${shown.kind}" role="${shown.kind === 'error' ? 'alert' : 'status'}"><p>${say(page, shown)}${shown.english && html` <span lang="en">${shown.english}</span>`}</p></div>`
  );
}

export const csrfField = (page: PageContext) => html`<input type="hidden" name="_csrf" value="${page.csrf}">`;

export type SignUpField = 'name' | 'email' | 'account_type';
export type FieldErrors = Partial<Record<SignUpField, Words>>;
export type FieldValues = Partial<Record<SignUpField, string>>;

const LABELS: Record<SignUpField, Words> = {
  name: { de: 'Ihr Name', en: 'Your name' },
  email: { de: 'E-Mail-Adresse', en: 'Email address' },
  account_type: { de: 'Art des Kontos', en: 'Account type' },
};

function errorSummary(page: PageContext, errors: FieldErrors): SafeHtml | false {
  const failed = (Object.keys(LABELS) as SignUpField[]).filter((field) => errors[field]);
  if (failed.length === 0) return false;
  return html`<div class="notice error" role="alert"><p><strong>${say(page, { de: 'Bitte korrigieren Sie:', en: 'Please correct:' })}</strong></p><ul>${failed.map((field) => html`<li><a href="#${field}">${say(page, errors[field] as Words)}</a></li>`)}</ul></div>`;
}

function textField(page: PageContext, field: 'name' | 'email', values: FieldValues, errors: FieldErrors): SafeHtml {
  const error = errors[field];
  const type = field === 'email' ? 'email' : 'text';
  const auto = field === 'email' ? 'email' : 'name';
  return html`<div class="field">
<label for="${field}">${say(page, LABELS[field])}</label>
${error && html`<p class="error" id="${field}-error">${say(page, error)}</p>`}
<input id="${field}" name="${field}" type="${type}" autocomplete="${auto}" value="${values[field] ?? ''}" required${field === 'email' && html` spellcheck="false"`}${error && html` aria-describedby="${field}-error" aria-invalid="true"`}>
</div>`;
}

function accountTypeField(page: PageContext, values: FieldValues, errors: FieldErrors): SafeHtml {
  const error = errors.account_type;
  const choice = (value: AccountType, id: string, words: Words) =>
    html`<div class="choice"><input type="radio" id="${id}" name="account_type" value="${value}"${values.account_type === value && html` checked`}><label for="${id}">${say(page, words)}</label></div>`;
  return html`<fieldset class="field"${error && html` aria-describedby="account_type-error"`}>
<legend>${say(page, LABELS.account_type)}</legend>
${error && html`<p class="error" id="account_type-error">${say(page, error)}</p>`}
${choice('private', 'account_type', { de: 'Privat – für mich selbst', en: 'Private – for yourself' })}
${choice('commercial', 'account_type-commercial', { de: 'Gewerblich – für ein Unternehmen', en: 'Commercial – for a business' })}
</fieldset>`;
}

const SEND_CODE: Words = { de: 'Code senden', en: 'Send code' };

export function signUpPage(page: PageContext, values: FieldValues, errors: FieldErrors, shown?: PageNotice): string {
  const body = html`<p>${say(page, { de: 'Wir senden Ihnen einen sechsstelligen Code per E-Mail; damit ist Ihr Konto sofort angelegt. Schon ein Konto?', en: 'We e-mail you a six-digit code; entering it creates your account at once. Have an account?' })} <a href="/signin">${say(page, { de: 'Anmelden', en: 'Sign in' })}</a></p>
${notice(page, shown)}${errorSummary(page, errors)}
<form method="post" action="/signup" novalidate>
${csrfField(page)}
${textField(page, 'name', values, errors)}
${textField(page, 'email', values, errors)}
${accountTypeField(page, values, errors)}
<button type="submit">${say(page, SEND_CODE)}</button>
</form>`;
  return layout(page, { de: 'Konto anlegen', en: 'Create an account' }, body, Object.keys(errors).length > 0);
}

export function signInPage(page: PageContext, values: FieldValues, errors: FieldErrors, shown?: PageNotice): string {
  const body = html`<p>${say(page, { de: 'Wir senden Ihnen einen sechsstelligen Code an die E-Mail-Adresse Ihres Kontos. Noch kein Konto?', en: 'We e-mail a six-digit code to your account’s address. No account yet?' })} <a href="/signup">${say(page, { de: 'Konto anlegen', en: 'Create an account' })}</a></p>
${notice(page, shown)}${errorSummary(page, errors)}
<form method="post" action="/signin" novalidate>
${csrfField(page)}
${textField(page, 'email', values, errors)}
<button type="submit">${say(page, SEND_CODE)}</button>
</form>
${passkeyBox(page, 'signin')}`;
  return layout(page, { de: 'Anmelden', en: 'Sign in' }, body, Object.keys(errors).length > 0, true);
}

export function codePage(page: PageContext, email: string, minutes: number, shown?: PageNotice): string {
  const error = shown?.kind === 'error';
  const body = html`<p>${say(page, { de: `Wenn diese Adresse angemeldet werden kann, haben wir an ${email} einen Code gesendet. Er gilt ${minutes} Minuten.`, en: `If this address can sign in, we sent a code to ${email}. It works for ${minutes} minutes.` })}</p>
${notice(page, shown)}
<form method="post" action="/signin/code" novalidate>
${csrfField(page)}
<div class="field">
<label for="code">${say(page, { de: 'Code aus der E-Mail (6 Ziffern)', en: 'Code from the e-mail (6 digits)' })}</label>
<input id="code" name="code" class="code" type="text" inputmode="numeric" autocomplete="one-time-code" maxlength="7" required${error && html` aria-invalid="true"`}>
</div>
<button type="submit">${say(page, { de: 'Weiter', en: 'Continue' })}</button>
</form>
<p><a href="/signin">${say(page, { de: 'Neuen Code anfordern', en: 'Ask for a new code' })}</a></p>`;
  return layout(page, { de: 'Code eingeben', en: 'Enter your code' }, body, error);
}

/** A page that only says what happened and where to go on. */
export function messagePage(page: PageContext, title: Words, shown: PageNotice, next: { href: string; words: Words }) {
  return layout(page, title, html`${notice(page, shown)}<p><a href="${next.href}">${say(page, next.words)}</a></p>`);
}

/**
 * The passkey button, hidden until the script finds WebAuthn in the browser (without JavaScript it
 * stays hidden and the e-mailed code is the way in). The script reads the CSRF token and the
 * messages from its data attributes.
 */
function passkeyBox(page: PageContext, mode: 'signin' | 'register'): SafeHtml {
  const failed = say(page, {
    de: 'Das hat nicht geklappt. Versuchen Sie es noch einmal.',
    en: 'That did not work. Try again.',
  });
  const signin = mode === 'signin';
  return html`<div class="passkey" data-passkey="${mode}" data-csrf="${page.csrf}" data-failed="${failed}" hidden>
${signin ? html`<p>${say(page, { de: 'Oder ohne Code:', en: 'Or without a code:' })}</p>` : html`<div class="field"><label for="passkey_name">${say(page, { de: 'Name des neuen Passkeys (optional)', en: 'Name for the new passkey (optional)' })}</label><input id="passkey_name" name="passkey_name" type="text" maxlength="60" autocomplete="off"></div>`}
<button type="button"${signin && html` class="secondary"`}>${say(page, signin ? { de: 'Mit Passkey anmelden', en: 'Sign in with a passkey' } : { de: 'Passkey hinzufügen', en: 'Add a passkey' })}</button>
<p class="error" role="status" aria-live="polite" data-passkey-status></p>
</div>`;
}

export interface AccountView {
  name: string;
  email: string;
  account_type: AccountType;
  passkeys: { id: string; name: string; created_at: string; last_used_at: string | null }[];
  /** Apps acting for the person (OAuth grants). */
  apps: { id: string; name: string; scopes: string[]; created_at: string }[];
  sessions: { id: string; user_agent: string | null; created_at: string; last_seen_at: string; current: boolean }[];
  /** What is sent, when and in which language (issue 36): the same settings as /v1/me/notification-settings. */
  notifications: NotificationPreferences;
  /** What is wrong with the quiet hours posted (shown next to them, with what was posted). */
  quietHoursError?: Words;
}

export const when = (page: PageContext, iso: string) =>
  new Date(iso).toLocaleString(page.language === 'de' ? 'de-DE' : 'en-GB', {
    timeZone: 'Europe/Berlin',
    dateStyle: 'medium',
    timeStyle: 'short',
  });

export function accountPage(page: PageContext, account: AccountView, shown?: PageNotice): string {
  const type: Words =
    account.account_type === 'commercial' ? { de: 'Gewerblich', en: 'Commercial' } : { de: 'Privat', en: 'Private' };
  const rows = account.sessions.map(
    (
      session,
    ) => html`<tr><td>${session.user_agent ?? say(page, { de: 'Unbekannter Browser', en: 'Unknown browser' })}${session.current && html` <strong>(${say(page, { de: 'dieser Browser', en: 'this browser' })})</strong>`}</td><td>${when(page, session.created_at)}</td><td>${when(page, session.last_seen_at)}</td>
<td><form method="post" action="/account/sessions/revoke" class="inline">${csrfField(page)}<input type="hidden" name="session" value="${session.id}"><button type="submit" class="secondary" aria-label="${say(page, { de: 'Sitzung beenden', en: 'End session' })} ${when(page, session.created_at)}">${say(page, { de: 'Beenden', en: 'End' })}</button></form></td></tr>`,
  );
  const body = html`${notice(page, shown)}
<dl>
<dt>${say(page, { de: 'Name', en: 'Name' })}</dt><dd>${account.name}</dd>
<dt>${say(page, LABELS.email)}</dt><dd>${account.email}</dd>
<dt>${say(page, LABELS.account_type)}</dt><dd>${say(page, type)}</dd>
</dl>
<h2>${say(page, { de: 'Passkeys', en: 'Passkeys' })}</h2>
${passkeyList(page, account)}
${passkeyBox(page, 'register')}
<noscript><p>${say(page, { de: 'Passkeys hinzufügen geht nur mit JavaScript; die Anmeldung mit einem Code per E-Mail geht immer.', en: 'Adding a passkey needs JavaScript; signing in with a code by e-mail always works.' })}</p></noscript>
${notificationForm(page, account.notifications, account.quietHoursError)}
<h2>${say(page, { de: 'Verbundene Apps', en: 'Connected apps' })}</h2>
${appList(page, account)}
<h2>${say(page, { de: 'Angemeldete Browser', en: 'Signed-in browsers' })}</h2>
<table>
<thead><tr><th scope="col">${say(page, { de: 'Browser', en: 'Browser' })}</th><th scope="col">${say(page, { de: 'Angemeldet', en: 'Signed in' })}</th><th scope="col">${say(page, { de: 'Zuletzt', en: 'Last used' })}</th><th scope="col"><span>${say(page, { de: 'Aktion', en: 'Action' })}</span></th></tr></thead>
<tbody>${rows}</tbody>
</table>
<form method="post" action="/signout">${csrfField(page)}<button type="submit">${say(page, { de: 'Abmelden', en: 'Sign out' })}</button></form>`;
  return layout(page, { de: 'Ihr Konto', en: 'Your account' }, body, false, true);
}

function passkeyList(page: PageContext, account: AccountView): SafeHtml {
  if (account.passkeys.length === 0) {
    return html`<p>${say(page, { de: 'Noch keine Passkeys. Mit einem Passkey melden Sie sich ohne Code an, mit Fingerabdruck, Gesicht oder PIN Ihres Geräts.', en: 'No passkeys yet. With a passkey you sign in without a code, with your device’s fingerprint, face or PIN.' })}</p>`;
  }
  const never = say(page, { de: 'noch nie', en: 'never' });
  const rows = account.passkeys.map(
    (
      key,
    ) => html`<tr><td>${key.name}</td><td>${when(page, key.created_at)}</td><td>${key.last_used_at ? when(page, key.last_used_at) : never}</td>
<td><form method="post" action="/account/passkeys/remove" class="inline">${csrfField(page)}<input type="hidden" name="passkey" value="${key.id}"><button type="submit" class="secondary" aria-label="${say(page, { de: 'Passkey entfernen', en: 'Remove passkey' })} ${key.name}">${say(page, { de: 'Entfernen', en: 'Remove' })}</button></form></td></tr>`,
  );
  return html`<table>
<thead><tr><th scope="col">${say(page, { de: 'Name', en: 'Name' })}</th><th scope="col">${say(page, { de: 'Hinzugefügt', en: 'Added' })}</th><th scope="col">${say(page, { de: 'Zuletzt benutzt', en: 'Last used' })}</th><th scope="col"><span>${say(page, { de: 'Aktion', en: 'Action' })}</span></th></tr></thead>
<tbody>${rows}</tbody>
</table>`;
}

function appList(page: PageContext, account: AccountView): SafeHtml {
  if (account.apps.length === 0) {
    return html`<p>${say(page, { de: 'Keine App handelt in Ihrem Namen.', en: 'No app acts for you.' })}</p>`;
  }
  const rows = account.apps.map(
    (app) => html`<tr><td>${app.name}</td><td>${app.scopes.join(', ')}</td><td>${when(page, app.created_at)}</td>
<td><form method="post" action="/account/apps/revoke" class="inline">${csrfField(page)}<input type="hidden" name="grant" value="${app.id}"><button type="submit" class="secondary" aria-label="${say(page, { de: 'Trennen', en: 'Disconnect' })} ${app.name}">${say(page, { de: 'Trennen', en: 'Disconnect' })}</button></form></td></tr>`,
  );
  return html`<table>
<thead><tr><th scope="col">${say(page, { de: 'App', en: 'App' })}</th><th scope="col">${say(page, { de: 'Darf', en: 'May' })}</th><th scope="col">${say(page, { de: 'Seit', en: 'Since' })}</th><th scope="col"><span>${say(page, { de: 'Aktion', en: 'Action' })}</span></th></tr></thead>
<tbody>${rows}</tbody>
</table>`;
}

const KIND_WORDS: Record<NotificationKind, Words> = {
  messages: { de: 'Neue Nachrichten', en: 'New messages' },
  applications: { de: 'Bewerbungen', en: 'Applications' },
  bookings: { de: 'Buchungen', en: 'Bookings' },
  payments: { de: 'Zahlungen und Schadensmeldungen', en: 'Payments and damage claims' },
  reminders: { de: 'Erinnerungen', en: 'Reminders' },
};

const CHANNEL_WORDS: Record<NotificationChannel, Words> = {
  email: { de: 'E-Mail sofort', en: 'E-mail at once' },
  push: { de: 'Push an Ihre Browser', en: 'Push to your browsers' },
  digest: { de: 'In der täglichen Übersicht', en: 'In the daily digest' },
};

/**
 * The notification settings as a form (issue 36), posted to /account/notifications: the language
 * of the e-mails, per kind the channels, quiet hours and the digest's time. Works without JavaScript;
 * an unticked box is a channel off, empty quiet hours are none.
 */
function notificationForm(page: PageContext, settings: NotificationPreferences, quietError?: Words): SafeHtml {
  const checked = (on: boolean) => on && html` checked`;
  const language = (code: 'de' | 'en', words: Words) =>
    html`<div class="choice"><input type="radio" id="language-${code}" name="language" value="${code}"${checked(settings.language === code)}><label for="language-${code}">${say(page, words)}</label></div>`;
  const kinds = NOTIFICATION_KINDS.map(
    (kind) => html`<fieldset class="field"><legend>${say(page, KIND_WORDS[kind])}</legend>
${NOTIFICATION_CHANNELS.map(
  (channel) =>
    html`<div class="choice"><input type="checkbox" id="${kind}-${channel}" name="${kind}.${channel}" value="on"${checked(settings.kinds[kind][channel])}><label for="${kind}-${channel}">${say(page, CHANNEL_WORDS[channel])}</label></div>`,
)}
</fieldset>`,
  );
  const quiet = html` aria-describedby="quiet-hint${quietError ? ' quiet-error' : ''}"${quietError && html` aria-invalid="true"`}`;
  const time = (id: string, words: Words, value: string, before?: SafeHtml) =>
    html`<div class="field"><label for="${id}">${say(page, words)}</label>${before ?? ''}<input type="time" id="${id}" name="${id}" value="${value}"${before ? quiet : ''}></div>`;
  const quietHint = html`<p class="hint" id="quiet-hint">${say(page, { de: 'Ortszeit Karlsruhe. In der Ruhezeit wird nichts sofort gesendet, sondern wenn sie endet. Beide Felder leer: keine Ruhezeit.', en: 'Local time in Karlsruhe. Nothing is sent at once in quiet hours; it goes when they end. Both fields empty: none.' })}</p>${quietError && html`<p class="error" id="quiet-error">${say(page, quietError)}</p>`}`;
  return html`<h2 id="notifications">${say(page, { de: 'Benachrichtigungen', en: 'Notifications' })}</h2>
<form method="post" action="/account/notifications">${csrfField(page)}
<fieldset class="field"><legend>${say(page, { de: 'Sprache der E-Mails', en: 'Language of the e-mails' })}</legend>
${language('de', { de: 'Deutsch', en: 'German' })}${language('en', { de: 'Englisch', en: 'English' })}
</fieldset>
${kinds}
${time('quiet_start', { de: 'Ruhezeit ab', en: 'Quiet hours from' }, settings.quiet_hours?.start ?? '', quietHint)}
${time('quiet_end', { de: 'Ruhezeit bis', en: 'Quiet hours until' }, settings.quiet_hours?.end ?? '', html``)}
${time('digest_time', { de: 'Tägliche Übersicht um', en: 'Daily digest at' }, settings.digest_time)}
<button type="submit">${say(page, { de: 'Benachrichtigungen speichern', en: 'Save notifications' })}</button>
</form>`;
}
