import { type DraftOperation, shownMoney, shownWhen } from '../../domain/drafts.js';
import type { DraftView as Draft } from '../../schemas/drafts.js';
import { html, SafeHtml } from './html.js';
import { pageShell } from './page-shell.js';

/**
 * The page a draft's confirmation_url opens: German first, English beside it, no script. It shows
 * what the draft's summary and details hold (title, place name, money, dates) and nothing else: no
 * e-mail address, no point on a map, no other party.
 */

const STYLE = new SafeHtml(`
:root{color-scheme:light dark;--fg:#1b1f24;--muted:#4f5965;--bg:#f4f6f8;--card:#fff;--line:#c5ccd3;--accent:#0b5cad;--error:#b3261e;--ok:#1e6b34}
@media (prefers-color-scheme:dark){:root{--fg:#e8eaed;--muted:#b2bac2;--bg:#15181c;--card:#1f2328;--line:#4a525b;--accent:#7cb7ff;--error:#ff8a80;--ok:#8fd19e}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:40rem;margin:2rem auto;padding:2rem;background:var(--card);border-radius:12px;box-shadow:0 1px 4px rgb(0 0 0/.12)}
@media (max-width:42rem){main{margin:0;border-radius:0;padding:1.25rem}}
h1{margin:0 0 .75rem;font-size:1.6rem;line-height:1.2}
.en{color:var(--muted)}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem;margin:1.25rem 0}
dt{font-weight:600}dd{margin:0}
.notice{border-left:4px solid var(--accent);padding:.5rem 1rem;margin:1rem 0}
.notice.error{border-color:var(--error)}.notice.ok{border-color:var(--ok)}
.actions{display:flex;gap:1rem;flex-wrap:wrap;margin-top:1.5rem}
button{font:inherit;font-weight:600;border-radius:6px;padding:.65rem 1.4rem;cursor:pointer;border:2px solid var(--accent)}
button[value=confirm]{color:#fff;background:var(--accent)}
@media (prefers-color-scheme:dark){button[value=confirm]{color:#0b1a2b}}
button[value=decline]{color:var(--accent);background:transparent}
button:focus{outline:3px solid var(--accent);outline-offset:2px}
footer{margin-top:2rem;font-size:.9rem;color:var(--muted)}
`);

function layout(title: string, body: SafeHtml): string {
  return pageShell({
    language: 'de',
    title: `${title} – Karlsruhe Marketplace`,
    style: STYLE,
    noindex: true,
    main: html`${body}
<footer>Karlsruhe Marketplace · Ein Programm hat diesen Vorschlag für Sie vorbereitet. <span lang="en" class="en">A program prepared this proposal for you.</span></footer>`,
  });
}

/** Two languages side by side: German, then English in a muted line. */
const both = (de: string, en: string) => html`${de} <span lang="en" class="en">/ ${en}</span>`;

const WHAT: Record<DraftOperation, { de: string; en: string }> = {
  createJob: { de: 'Auftrag veröffentlichen', en: 'Post a job' },
  applyToJob: { de: 'Auf einen Auftrag bewerben', en: 'Apply to a job' },
  createBooking: { de: 'Gegenstand ausleihen', en: 'Borrow an item' },
  createListing: { de: 'Gegenstand zum Verleihen anbieten', en: 'Offer an item to lend' },
};

function facts(draft: Draft): SafeHtml {
  const d = draft.details;
  const perDay = draft.operation === 'createListing';
  const price = perDay
    ? both(`${shownMoney(d.price_eur, 'de')} pro Tag`, `${shownMoney(d.price_eur, 'en')} a day`)
    : both(shownMoney(d.price_eur, 'de'), shownMoney(d.price_eur, 'en'));
  const starts = draft.operation === 'createBooking' ? both('Vom', 'From') : both('Gewünscht am', 'Wanted on');
  const ends = draft.operation === 'createBooking' ? both('Bis', 'To') : both('Frist', 'Deadline');
  return html`<dl>
<dt>${both('Was', 'What')}</dt><dd>${d.title}</dd>
<dt>${both('Ort', 'Place')}</dt><dd>${d.place}</dd>
<dt>${both(perDay || draft.operation === 'createBooking' ? 'Miete' : 'Preis', perDay || draft.operation === 'createBooking' ? 'Rent' : 'Price')}</dt><dd>${price}</dd>
${d.deposit_eur !== null && html`<dt>${both('Kaution', 'Deposit')}</dt><dd>${both(shownMoney(d.deposit_eur, 'de'), shownMoney(d.deposit_eur, 'en'))}</dd>`}
${d.starts !== null && html`<dt>${starts}</dt><dd>${both(shownWhen(d.starts, 'de'), shownWhen(d.starts, 'en'))}</dd>`}
${d.ends !== null && html`<dt>${ends}</dt><dd>${both(shownWhen(d.ends, 'de'), shownWhen(d.ends, 'en'))}</dd>`}
</dl>`;
}

function summary(draft: Draft): SafeHtml {
  return html`<p>${draft.summary.de}</p><p lang="en" class="en">${draft.summary.en}</p>${facts(draft)}`;
}

/** What a page says above the summary, when something happened. */
export interface PageNotice {
  kind: 'ok' | 'error' | 'info';
  de: string;
  en: string;
  /** Extra text to show as it is (an operation's message and suggestion, in English). */
  detail?: string;
}

function notice(n: PageNotice | undefined): SafeHtml | false {
  if (!n) return false;
  return html`<div class="notice ${n.kind}" role="${n.kind === 'error' ? 'alert' : 'status'}"><p>${n.de}</p><p lang="en" class="en">${n.en}</p>${n.detail && html`<p lang="en">${n.detail}</p>`}</div>`;
}

/** A pending draft: what it does, and the two buttons (they post back to this URL). */
export function pendingPage(draft: Draft, action: string, shown?: PageNotice): string {
  const what = WHAT[draft.operation];
  return layout(
    'Bitte bestätigen',
    html`<h1>${both(`${what.de}?`, `${what.en}?`)}</h1>
${notice(shown)}
${summary(draft)}
<p>${both(`Dieser Link gilt bis ${shownWhen(draft.expires_at, 'de')} und nur einmal.`, `This link works until ${shownWhen(draft.expires_at, 'en')}, once.`)}</p>
<form method="post" action="${action}" class="actions">
<button type="submit" name="decision" value="confirm">${both('Bestätigen', 'Confirm')}</button>
<button type="submit" name="decision" value="decline">${both('Ablehnen', 'Decline')}</button>
</form>`,
  );
}

/** A draft that was decided or expired: what became of it. */
export function decidedPage(draft: Draft, shown?: PageNotice): string {
  const outcomes: Record<Exclude<Draft['status'], 'pending'>, { title: [string, string]; notice: PageNotice }> = {
    confirmed: {
      title: ['Bestätigt', 'Confirmed'],
      notice: { kind: 'ok', de: 'Erledigt, genau einmal.', en: 'Done, exactly once.' },
    },
    declined: {
      title: ['Abgelehnt', 'Declined'],
      notice: { kind: 'info', de: 'Es ist nichts geschehen.', en: 'Nothing was done.' },
    },
    expired: {
      title: ['Abgelaufen', 'Expired'],
      notice: {
        kind: 'info',
        de: 'Dieser Link ist abgelaufen; es ist nichts geschehen.',
        en: 'This link has expired; nothing was done.',
      },
    },
  };
  const outcome = outcomes[draft.status === 'pending' ? 'expired' : draft.status];
  const [de, en] = outcome.title;
  return layout(
    en,
    html`<h1>${both(de, en)}</h1>
${notice(shown)}
${notice(outcome.notice)}
${summary(draft)}`,
  );
}

/** A token that names no draft. */
export function unknownPage(): string {
  return layout(
    'Link unbekannt',
    html`<h1>${both('Link unbekannt', 'Unknown link')}</h1>
${notice({ kind: 'error', de: 'Zu diesem Link gibt es keinen Vorschlag. Prüfen Sie, ob er vollständig ist.', en: 'This link names no proposal. Check that it is complete.' })}`,
  );
}

/** The sign-in page, leading back to `path` afterwards (sign-in-pages.ts returnPathOf). */
export const signInPathTo = (path: string) => `/signin?next=${encodeURIComponent(path)}`;

/**
 * A draft's page for a browser not signed in as the draft's account: only the account a program
 * prepared it for may see and decide it, so nothing of it is shown, only the way to sign in
 * (and back here afterwards).
 */
export function signInFirstPage(path: string): string {
  const signIn = signInPathTo(path);
  return layout(
    'Bitte anmelden',
    html`<h1>${both('Bitte anmelden', 'Please sign in')}</h1>
${notice({ kind: 'info', de: 'Diesen Vorschlag kann nur das Konto sehen und entscheiden, für das er vorbereitet wurde. Melden Sie sich mit der E-Mail-Adresse dieses Kontos an; danach kommen Sie hierher zurück.', en: "Only the account this proposal was prepared for can see and decide it. Sign in with that account's e-mail address; afterwards you come back here." })}
<p><a href="${signIn}">${both('Anmelden', 'Sign in')}</a></p>`,
  );
}

/** A draft's page for a browser signed in as another account than the draft's: nothing of it shown. */
export function otherAccountPage(): string {
  return layout(
    'Anderes Konto',
    html`<h1>${both('Anderes Konto', 'Another account')}</h1>
${notice({ kind: 'error', de: 'Dieser Vorschlag wurde für ein anderes Konto vorbereitet als das, mit dem Sie angemeldet sind. Melden Sie sich ab und mit dem richtigen Konto wieder an.', en: 'This proposal was prepared for another account than the one you are signed in with. Sign out, then sign in with the right account.' })}
<p><a href="/account">${both('Zu Ihrem Konto (dort abmelden)', 'To your account (sign out there)')}</a></p>`,
  );
}

/** A refusal that shows nothing of the draft (a cross-site post for a browser that is not the draft's account's). */
export function refusedPage(shown: PageNotice): string {
  return layout('Nicht ausgeführt', html`<h1>${both('Nicht ausgeführt', 'Not done')}</h1>\n${notice(shown)}`);
}
