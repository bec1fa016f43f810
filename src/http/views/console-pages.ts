import {
  type AccountFile,
  type AppealFile,
  type AuditLogRow,
  type ClaimFile,
  type DecisionRow,
  type OperatorRole,
  type QueueFigure,
  type QueueName,
  type ReportFile,
  type ReportSnapshot,
  roleAllows,
} from '../../services/console.js';
import { reasonLabel } from './console-charts.js';
import { html, type SafeHtml } from './html.js';
import {
  csrfField,
  layout,
  notice,
  type PageContext,
  type PageNotice,
  say,
  type Words,
  when,
} from './sign-in-pages.js';

/**
 * The operators' console (issue 33), server-rendered in the sign-in pages' layout: German or
 * English, no script, the page's one style allowed by its hash (no unsafe-inline). Every form
 * carries its CSRF token; every decision asks for its reason.
 */

const ROLE: Record<OperatorRole, Words> = {
  support: { de: 'Support', en: 'Support' },
  moderator: { de: 'Moderation', en: 'Moderator' },
  admin: { de: 'Administration', en: 'Admin' },
};

const QUEUE: Record<QueueName, Words> = {
  key_requests: { de: 'Schlüsselanträge', en: 'Key requests' },
  verifications: { de: 'Verifizierungen', en: 'Verifications' },
  reports: { de: 'DSA-Meldungen', en: 'DSA reports' },
  appeals: { de: 'Beschwerden', en: 'Appeals' },
  claims: { de: 'Strittige Schadensansprüche', en: 'Disputed damage claims' },
};

const QUEUE_PATH: Record<QueueName, string> = {
  key_requests: '/console/key-requests',
  verifications: '/console/verifications',
  reports: '/console/reports',
  appeals: '/console/appeals',
  claims: '/console/claims',
};

/** The pages of the console, for the navigation: where, what, and the role it needs. */
export type ConsolePlace = 'overview' | QueueName | 'accounts' | 'operators' | 'audit';

const PLACES: { place: ConsolePlace; href: string; words: Words; role: OperatorRole }[] = [
  { place: 'overview', href: '/console', words: { de: 'Übersicht', en: 'Overview' }, role: 'support' },
  { place: 'key_requests', href: QUEUE_PATH.key_requests, words: QUEUE.key_requests, role: 'support' },
  { place: 'verifications', href: QUEUE_PATH.verifications, words: QUEUE.verifications, role: 'support' },
  { place: 'reports', href: QUEUE_PATH.reports, words: QUEUE.reports, role: 'moderator' },
  { place: 'appeals', href: QUEUE_PATH.appeals, words: QUEUE.appeals, role: 'moderator' },
  { place: 'claims', href: QUEUE_PATH.claims, words: { de: 'Schadensansprüche', en: 'Claims' }, role: 'moderator' },
  { place: 'accounts', href: '/console/accounts', words: { de: 'Konten', en: 'Accounts' }, role: 'support' },
  { place: 'operators', href: '/console/operators', words: { de: 'Betreiber', en: 'Operators' }, role: 'admin' },
  { place: 'audit', href: '/console/audit', words: { de: 'Protokoll', en: 'Audit log' }, role: 'admin' },
];

/** How long ago, in whole hours or days. */
function age(page: PageContext, since: string, now: Date): string {
  const hours = Math.max(0, Math.floor((now.getTime() - Date.parse(since)) / 3_600_000));
  if (hours < 48) return page.language === 'de' ? `${hours} Std.` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return page.language === 'de' ? `${days} Tage` : `${days} days`;
}

const euros = (cents: number) => `${(cents / 100).toFixed(2)} €`;

function nav(page: PageContext, role: OperatorRole, here: ConsolePlace): SafeHtml {
  const links = PLACES.filter((place) => roleAllows(role, place.role)).map(
    (place) =>
      html`<li><a href="${place.href}"${place.place === here ? html` aria-current="page"` : ''}>${say(page, place.words)}</a></li>`,
  );
  return html`<nav aria-label="${say(page, { de: 'Konsole', en: 'Console' })}"><ul>
${links}
<li><a href="/account">${say(page, { de: 'Mein Konto', en: 'My account' })}</a></li>
</ul></nav>
<p>${say(page, { de: 'Ihre Rolle', en: 'Your role' })}: <strong>${say(page, ROLE[role])}</strong></p>`;
}

/** A console page: the navigation, a notice, the body, in a wide layout. */
function consolePage(
  page: PageContext,
  role: OperatorRole,
  here: ConsolePlace,
  title: Words,
  body: SafeHtml,
  shown?: PageNotice,
): string {
  return layout(
    { ...page, wide: true },
    title,
    html`${nav(page, role, here)}${notice(page, shown)}${body}`,
    shown?.kind === 'error',
  );
}

/** A multi-line reason field; `id` is unique on the page. */
function reasonField(page: PageContext, id: string, label: Words, value = '', name = 'reason'): SafeHtml {
  return html`<div class="field"><label for="${id}">${say(page, label)}</label><textarea id="${id}" name="${name}" rows="4" maxlength="1000" required>${value}</textarea></div>`;
}

const REASON: Words = { de: 'Begründung (wird gespeichert und mitgeteilt)', en: 'Reason (stored and sent)' };

/** A form posting to `action` with its CSRF token. */
const form = (page: PageContext, action: string, inner: SafeHtml, label?: Words) =>
  html`<form method="post" action="${action}"${label && html` aria-label="${say(page, label)}"`}>${csrfField(page)}${inner}</form>`;

const dl = (page: PageContext, rows: [Words, unknown][]) =>
  html`<dl>${rows.map(([term, value]) => html`<dt>${say(page, term)}</dt><dd>${value ?? '–'}</dd>`)}</dl>`;

// ---------------------------------------------------------------- overview

export function overviewPage(
  page: PageContext,
  role: OperatorRole,
  queues: { queue: QueueName; figure: QueueFigure }[],
  now: Date,
  charts?: SafeHtml,
): string {
  const rows = queues.map(
    ({ queue, figure }) =>
      html`<tr><th scope="row"><a href="${QUEUE_PATH[queue]}">${say(page, QUEUE[queue])}</a></th><td>${figure.waiting}</td><td>${
        figure.oldest ? age(page, figure.oldest, now) : '–'
      }</td></tr>`,
  );
  const body = html`<h2>${say(page, { de: 'Warteschlangen', en: 'Queues' })}</h2>
<table>
<caption>${say(page, { de: 'Was auf eine Entscheidung wartet', en: 'What waits for a decision' })}</caption>
<thead><tr><th scope="col">${say(page, { de: 'Warteschlange', en: 'Queue' })}</th><th scope="col">${say(page, {
    de: 'Wartend',
    en: 'Waiting',
  })}</th><th scope="col">${say(page, { de: 'Ältester seit', en: 'Oldest for' })}</th></tr></thead>
<tbody>${rows}</tbody>
</table>
${charts}`;
  return consolePage(page, role, 'overview', { de: 'Konsole', en: 'Console' }, body);
}

// ---------------------------------------------------------------- key requests

export interface KeyRequestView {
  id: string;
  name: string;
  email: string;
  account_type: string;
  organisation: string | null;
  intended_use: string;
  created_at: string;
}

export function keyRequestsPage(
  page: PageContext,
  role: OperatorRole,
  rows: KeyRequestView[],
  now: Date,
  shown?: PageNotice,
): string {
  const items = rows.map(
    (row) => html`<article aria-labelledby="h-${row.id}">
<h3 id="h-${row.id}">${row.name} (${row.id})</h3>
${dl(page, [
  [{ de: 'E-Mail', en: 'E-mail' }, row.email],
  [{ de: 'Art', en: 'Type' }, row.account_type],
  [{ de: 'Organisation', en: 'Organisation' }, row.organisation],
  [{ de: 'Eingegangen', en: 'Filed' }, html`${when(page, row.created_at)} (${age(page, row.created_at, now)})`],
])}
<p><strong>${say(page, { de: 'Vorhaben', en: 'Intended use' })}</strong></p>
<p class="quote">${row.intended_use}</p>
<div class="actions">
${form(
  page,
  `/console/key-requests/${row.id}/approve`,
  html`<button type="submit" aria-describedby="h-${row.id}">${say(page, { de: 'Freigeben und Schlüssel senden', en: 'Approve and send the key' })}</button>`,
  { de: `Freigeben: ${row.name}`, en: `Approve: ${row.name}` },
)}
${form(
  page,
  `/console/key-requests/${row.id}/reject`,
  html`${reasonField(page, `reason-${row.id}`, REASON)}<button type="submit" class="secondary" aria-describedby="h-${row.id}">${say(page, { de: 'Ablehnen', en: 'Reject' })}</button>`,
  { de: `Ablehnen: ${row.name}`, en: `Reject: ${row.name}` },
)}
</div>
</article>`,
  );
  const body = html`<h2>${say(page, { de: 'Wartende Anträge, älteste zuerst', en: 'Waiting requests, oldest first' })}</h2>
${rows.length === 0 ? html`<p>${say(page, { de: 'Keine wartenden Anträge.', en: 'No waiting requests.' })}</p>` : items}`;
  return consolePage(page, role, 'key_requests', QUEUE.key_requests, body, shown);
}

// ---------------------------------------------------------------- verifications

export interface VerificationListRow {
  id: string;
  helper_id: string | null;
  method: string;
  created_at: string;
  display_name: string | null;
}

/** A table of queue items linking to their pages. */
function queueTable(page: PageContext, caption: Words, head: Words[], rows: SafeHtml[]): SafeHtml {
  if (rows.length === 0) return html`<p>${say(page, { de: 'Nichts wartet.', en: 'Nothing waits.' })}</p>`;
  return html`<table><caption>${say(page, caption)}</caption>
<thead><tr>${head.map((words) => html`<th scope="col">${say(page, words)}</th>`)}</tr></thead>
<tbody>${rows}</tbody></table>`;
}

export function verificationsPage(
  page: PageContext,
  role: OperatorRole,
  rows: VerificationListRow[],
  now: Date,
  shown?: PageNotice,
): string {
  const lines = rows.map(
    (row) =>
      html`<tr><th scope="row"><a href="/console/verifications/${row.id}">${row.display_name ?? row.helper_id ?? row.id}</a></th><td>${row.method}</td><td>${age(page, row.created_at, now)}</td></tr>`,
  );
  const body = queueTable(
    page,
    { de: 'Wartende Verifizierungen, älteste zuerst', en: 'Waiting verifications, oldest first' },
    [
      { de: 'Helfer:in', en: 'Helper' },
      { de: 'Verfahren', en: 'Method' },
      { de: 'Wartet seit', en: 'Waiting for' },
    ],
    lines,
  );
  return consolePage(page, role, 'verifications', QUEUE.verifications, body, shown);
}

export interface VerificationView {
  verification: {
    id: string;
    helper_id: string | null;
    account_id: string | null;
    method: string;
    status: string;
    created_at: string;
  };
  helper?: {
    display_name: string;
    bio: string;
    categories: readonly string[];
    reliability_score: number;
    completed_jobs: number;
    cancellation_rate: number;
    available: boolean;
  };
  history: { id: string; status: string; created_at: string; decided_at: string | null; reason: string | null }[];
}

export function verificationPage(page: PageContext, role: OperatorRole, view: VerificationView, shown?: PageNotice) {
  const { verification, helper, history } = view;
  const pending = verification.status === 'pending';
  const body = html`<h2>${say(page, { de: 'Der Antrag', en: 'The request' })}</h2>
${dl(page, [
  [{ de: 'Antrag', en: 'Request' }, verification.id],
  [{ de: 'Verfahren', en: 'Method' }, verification.method],
  [{ de: 'Stand', en: 'Status' }, verification.status],
  [{ de: 'Eingegangen', en: 'Filed' }, when(page, verification.created_at)],
  [
    { de: 'Konto', en: 'Account' },
    verification.account_id &&
      html`<a href="/console/accounts/${verification.account_id}">${verification.account_id}</a>`,
  ],
])}
<h2>${say(page, { de: 'Profil', en: 'Profile' })}</h2>
${
  helper
    ? html`${dl(page, [
        [{ de: 'Name', en: 'Name' }, helper.display_name],
        [{ de: 'Bereiche', en: 'Categories' }, helper.categories.join(', ')],
        [{ de: 'Zuverlässigkeit (0–100)', en: 'Reliability (0–100)' }, helper.reliability_score],
        [{ de: 'Erledigte Aufträge', en: 'Completed jobs' }, helper.completed_jobs],
        [{ de: 'Absagequote', en: 'Cancellation rate' }, `${Math.round(helper.cancellation_rate * 100)} %`],
        [{ de: 'Nimmt Aufträge an', en: 'Taking jobs' }, helper.available ? '✓' : '–'],
      ])}<p class="quote">${helper.bio}</p>`
    : html`<p>${say(page, { de: 'Das Profil ist nicht mehr öffentlich.', en: 'The profile is no longer public.' })}</p>`
}
<h2>${say(page, { de: 'Frühere Anträge', en: 'Earlier requests' })}</h2>
${
  history.length === 0
    ? html`<p>${say(page, { de: 'Keine.', en: 'None.' })}</p>`
    : html`<table><thead><tr><th scope="col">${say(page, { de: 'Antrag', en: 'Request' })}</th><th scope="col">${say(page, { de: 'Stand', en: 'Status' })}</th><th scope="col">${say(page, { de: 'Entschieden', en: 'Decided' })}</th><th scope="col">${say(page, REASON)}</th></tr></thead><tbody>${history.map(
        (row) =>
          html`<tr><td>${row.id}</td><td>${row.status}</td><td>${row.decided_at ? when(page, row.decided_at) : '–'}</td><td>${row.reason ?? ''}</td></tr>`,
      )}</tbody></table>`
}
${
  pending &&
  html`<h2>${say(page, { de: 'Entscheiden', en: 'Decide' })}</h2><div class="actions">
${form(
  page,
  `/console/verifications/${verification.id}/approve`,
  html`<button type="submit">${say(page, { de: 'Bestätigen', en: 'Approve' })}</button>`,
)}
${form(
  page,
  `/console/verifications/${verification.id}/reject`,
  html`${reasonField(page, 'reason', REASON)}<button type="submit" class="secondary">${say(page, { de: 'Ablehnen', en: 'Reject' })}</button>`,
)}
</div>`
}`;
  return consolePage(page, role, 'verifications', { de: 'Verifizierung', en: 'Verification' }, body, shown);
}

// ---------------------------------------------------------------- reports

/**
 * The statement of reasons each report ground starts from (DSA Art. 17(3)): the facts, the
 * provision or term, the action. The moderator edits it before deciding.
 */
export const STATEMENT_TEMPLATES: Record<string, { ground: 'legal' | 'terms'; words: Words }> = {
  illegal_content: {
    ground: 'legal',
    words: {
      de: 'Der Inhalt verstößt gegen geltendes Recht ([Vorschrift]). Tatsachen: [was der Inhalt zeigt]. Er wurde deshalb entfernt.',
      en: 'The content breaks the law ([provision]). Facts: [what the content shows]. It was therefore removed.',
    },
  },
  scam_or_fraud: {
    ground: 'legal',
    words: {
      de: 'Das Angebot zielt auf Täuschung ab (§ 263 StGB; Nutzungsbedingungen Nr. [x]). Tatsachen: [Vorauszahlung verlangt, falsche Angaben …].',
      en: 'The offer aims to deceive (§ 263 StGB; terms no. [x]). Facts: [advance payment asked, false statements …].',
    },
  },
  unsafe_product: {
    ground: 'legal',
    words: {
      de: 'Der Gegenstand ist nicht sicher (ProdSG / GPSR; Rückruf [Nummer]). Er darf hier nicht verliehen werden.',
      en: 'The item is not safe (ProdSG / GPSR; recall [number]). It may not be lent here.',
    },
  },
  discrimination_or_hate: {
    ground: 'terms',
    words: {
      de: 'Der Inhalt benachteiligt oder beleidigt Menschen wegen [Merkmal] (AGG; Nutzungsbedingungen Nr. [x]).',
      en: 'The content discriminates against or insults people because of [characteristic] (AGG; terms no. [x]).',
    },
  },
  privacy_violation: {
    ground: 'legal',
    words: {
      de: 'Der Inhalt veröffentlicht personenbezogene Daten Dritter ohne Rechtsgrundlage (Art. 6 DSGVO): [welche].',
      en: 'The content publishes personal data of others without a legal basis (Art. 6 GDPR): [which].',
    },
  },
  intellectual_property: {
    ground: 'legal',
    words: {
      de: 'Der Inhalt verletzt Rechte an [Werk/Marke] (UrhG / MarkenG); der Rechteinhaber hat dies dargelegt.',
      en: 'The content infringes rights in [work/trademark] (UrhG / MarkenG); the rights holder showed this.',
    },
  },
  prohibited_item: {
    ground: 'terms',
    words: {
      de: 'Der Gegenstand gehört zu den hier ausgeschlossenen (Nutzungsbedingungen Nr. [x]): [Gegenstand].',
      en: 'The item is one excluded here (terms no. [x]): [item].',
    },
  },
  other: {
    ground: 'terms',
    words: {
      de: 'Tatsachen: [was geschehen ist]. Angewandte Bedingung: [Nr.]. Maßnahme: [was und warum].',
      en: 'Facts: [what happened]. Term applied: [no.]. Action: [what and why].',
    },
  },
};

export function reportsPage(
  page: PageContext,
  role: OperatorRole,
  rows: { id: string; about_type: string; about_id: string; reason: string; created_at: string }[],
  now: Date,
  shown?: PageNotice,
): string {
  const lines = rows.map(
    (row) =>
      html`<tr><th scope="row"><a href="/console/reports/${row.id}">${row.id}</a></th><td>${row.about_type} ${row.about_id}</td><td>${reasonLabel(page.language, row.reason)}</td><td>${age(page, row.created_at, now)}</td></tr>`,
  );
  const body = queueTable(
    page,
    { de: 'Eingegangene Meldungen, älteste zuerst', en: 'Received reports, oldest first' },
    [
      { de: 'Meldung', en: 'Report' },
      { de: 'Betrifft', en: 'About' },
      { de: 'Grund', en: 'Ground' },
      { de: 'Wartet seit', en: 'Waiting for' },
    ],
    lines,
  );
  return consolePage(page, role, 'reports', QUEUE.reports, body, shown);
}

/** What the item said when it was reported. */
function evidenceOf(page: PageContext, evidence: ReportSnapshot | null, privateShown: boolean): SafeHtml {
  if (!evidence) {
    return html`<p>${say(page, {
      de: 'Kein Abbild gespeichert (vor der Einführung gemeldet, oder das Konto wurde gelöscht).',
      en: 'No copy kept (reported before copies were kept, or the account was erased since).',
    })}</p>`;
  }
  const cut =
    evidence.truncated && html`<p>${say(page, { de: 'Texte wurden gekürzt.', en: 'Texts were cut short.' })}</p>`;
  switch (evidence.type) {
    case 'job':
    case 'listing':
      return html`${dl(page, [
        [{ de: 'Titel', en: 'Title' }, evidence.title],
        [{ de: 'Bereich', en: 'Category' }, evidence.category],
        [
          { de: 'Ort', en: 'Place' },
          `${evidence.plz} ${evidence.city}${evidence.district ? ` (${evidence.district})` : ''}`,
        ],
        [{ de: 'Fotos', en: 'Photos' }, evidence.photos.length > 0 ? photoLinks(evidence.photos) : null],
      ])}<p class="quote">${evidence.description}</p>${cut}`;
    case 'helper':
      return html`${dl(page, [
        [{ de: 'Name', en: 'Name' }, evidence.display_name],
        [{ de: 'Bereiche', en: 'Categories' }, evidence.categories.join(', ')],
      ])}<p class="quote">${evidence.bio}</p>${cut}`;
    case 'review':
      return html`${dl(page, [[{ de: 'Sterne', en: 'Stars' }, evidence.rating]])}${evidence.text && html`<p class="quote">${evidence.text}</p>`}${cut}`;
    case 'message':
      return privateShown
        ? html`${dl(page, [
            [{ de: 'Absender', en: 'Sender' }, evidence.sender_account_id],
            [{ de: 'Gesendet', en: 'Sent' }, when(page, evidence.sent_at)],
          ])}<p class="quote">${evidence.text}</p>${cut}`
        : html`<p>${say(page, {
            de: 'Eine private Nachricht: sie wird erst auf Ihren Wunsch gezeigt, und das Lesen wird protokolliert.',
            en: 'A private message: it is shown only when you ask, and the read is recorded in the audit log.',
          })}</p>`;
  }
}

/** Links to photos (not shown inline: the operator's browser loads nothing from elsewhere). */
const photoLinks = (urls: readonly string[]) =>
  html`<ul>${urls.map((url, i) => html`<li><a href="${url}" rel="noreferrer noopener" target="_blank">Foto ${i + 1}</a></li>`)}</ul>`;

function decisionsTable(page: PageContext, rows: DecisionRow[]): SafeHtml {
  if (rows.length === 0) return html`<p>${say(page, { de: 'Keine.', en: 'None.' })}</p>`;
  return html`<table><thead><tr><th scope="col">${say(page, { de: 'Entscheidung', en: 'Decision' })}</th><th scope="col">${say(page, { de: 'Maßnahme', en: 'Action' })}</th><th scope="col">${say(page, { de: 'Grundlage', en: 'Ground' })}</th><th scope="col">${say(page, { de: 'Wann', en: 'When' })}</th><th scope="col">${say(page, { de: 'Aufgehoben', en: 'Reversed' })}</th></tr></thead>
<tbody>${rows.map(
    (row) =>
      html`<tr><td>${row.id}</td><td>${row.action}</td><td>${row.ground}</td><td>${when(page, row.created_at)}</td><td>${row.reversed_at ? when(page, row.reversed_at) : '–'}</td></tr>`,
  )}</tbody></table>`;
}

/** A conversation read by an operator (the read is already recorded), the reported message marked. */
function conversationList(page: PageContext, lines: ConversationLine[], reported: string | undefined): SafeHtml {
  if (lines.length === 0) return html`<p>${say(page, { de: 'Keine Nachrichten.', en: 'No messages.' })}</p>`;
  return html`<ol>${lines.map(
    (line) =>
      html`<li><strong>${line.sender_account_id}</strong>, ${when(page, line.created_at)}${line.id === reported ? html` <strong>(${say(page, { de: 'gemeldet', en: 'reported' })})</strong>` : ''}: <span class="quote">${line.removed_at ? say(page, { de: '[entfernt]', en: '[removed]' }) : line.text}</span></li>`,
  )}</ol>`;
}

export interface ConversationLine {
  id: string;
  sender_account_id: string;
  text: string;
  created_at: string;
  removed_at: string | null;
}

export function reportPage(
  page: PageContext,
  role: OperatorRole,
  file: ReportFile,
  options: { conversation?: ConversationLine[]; values?: { action?: string; ground?: string; explanation?: string } },
  shown?: PageNotice,
): string {
  const { report, evidence, owner, earlier } = file;
  const template =
    STATEMENT_TEMPLATES[report.reason] ?? (STATEMENT_TEMPLATES.other as { ground: 'terms'; words: Words });
  const values = options.values ?? {};
  const action = values.action ?? 'remove';
  const ground = values.ground ?? template.ground;
  const option = (value: string, current: string, words: Words) =>
    html`<option value="${value}"${value === current ? html` selected` : ''}>${say(page, words)}</option>`;
  const isMessage = report.about_type === 'message';
  const body = html`${dl(page, [
    [{ de: 'Meldung', en: 'Report' }, report.id],
    [{ de: 'Betrifft', en: 'About' }, `${report.about_type} ${report.about_id}`],
    [{ de: 'Konto', en: 'Account' }, owner && html`<a href="/console/accounts/${owner}">${owner}</a>`],
    [{ de: 'Grund', en: 'Ground' }, reasonLabel(page.language, report.reason)],
    [{ de: 'Eingegangen', en: 'Filed' }, when(page, report.created_at)],
    [{ de: 'Stand', en: 'Status' }, report.status],
  ])}
<h2>${say(page, { de: 'Was die meldende Person schreibt', en: 'What the reporter says' })}</h2>
<p class="quote">${report.explanation}</p>
<h2>${say(page, { de: 'Der Inhalt zur Zeit der Meldung', en: 'The content when it was reported' })}</h2>
${evidenceOf(page, evidence, options.conversation !== undefined)}
${
  isMessage &&
  (options.conversation
    ? html`<h3>${say(page, { de: 'Das Gespräch (das Lesen ist protokolliert)', en: 'The conversation (this read is recorded)' })}</h3>
${conversationList(page, options.conversation, report.about_id)}`
    : form(
        page,
        `/console/reports/${report.id}/read`,
        html`<button type="submit" class="secondary">${say(page, { de: 'Nachricht und Gespräch lesen (wird protokolliert)', en: 'Read the message and its conversation (recorded)' })}</button>`,
      ))
}
<h2>${say(page, { de: 'Frühere Entscheidungen zu diesem Konto', en: 'Earlier decisions about this account' })}</h2>
${decisionsTable(page, earlier)}
${
  report.status === 'received' &&
  html`<h2>${say(page, { de: 'Entscheiden', en: 'Decide' })}</h2>
${form(
  page,
  `/console/reports/${report.id}/decide`,
  html`<div class="field"><label for="action">${say(page, { de: 'Maßnahme', en: 'Action' })}</label><select id="action" name="action">
${option('remove', action, { de: 'Entfernen', en: 'Remove' })}
${option('restrict_visibility', action, { de: 'Sichtbarkeit einschränken', en: 'Restrict visibility' })}
${option('suspend_account', action, { de: 'Konto sperren', en: 'Suspend the account' })}
${option('no_action', action, { de: 'Keine Maßnahme', en: 'No action' })}
</select></div>
<div class="field"><label for="ground">${say(page, { de: 'Grundlage', en: 'Ground' })}</label><select id="ground" name="ground">
${option('legal', ground, { de: 'Gesetz', en: 'Law' })}
${option('terms', ground, { de: 'Nutzungsbedingungen', en: 'Terms of service' })}
</select></div>
${reasonField(
  page,
  'explanation',
  {
    de: 'Begründung (DSA Art. 17; Vorlage zum Grund, bitte anpassen)',
    en: 'Statement of reasons (DSA Art. 17; the ground’s template, edit it)',
  },
  values.explanation ?? say(page, template.words),
  'explanation',
)}
<button type="submit">${say(page, { de: 'Entscheidung treffen', en: 'Decide' })}</button>`,
)}`
}`;
  return consolePage(page, role, 'reports', { de: 'DSA-Meldung', en: 'DSA report' }, body, shown);
}

// ---------------------------------------------------------------- appeals

export function appealsPage(
  page: PageContext,
  role: OperatorRole,
  rows: { id: string; decision_id: string; action: string; about_type: string; about_id: string; created_at: string }[],
  now: Date,
  shown?: PageNotice,
): string {
  const lines = rows.map(
    (row) =>
      html`<tr><th scope="row"><a href="/console/appeals/${row.id}">${row.id}</a></th><td>${row.decision_id} (${row.action})</td><td>${row.about_type} ${row.about_id}</td><td>${age(page, row.created_at, now)}</td></tr>`,
  );
  const body = queueTable(
    page,
    { de: 'Offene Beschwerden, älteste zuerst', en: 'Pending appeals, oldest first' },
    [
      { de: 'Beschwerde', en: 'Appeal' },
      { de: 'Gegen', en: 'Against' },
      { de: 'Betrifft', en: 'About' },
      { de: 'Wartet seit', en: 'Waiting for' },
    ],
    lines,
  );
  return consolePage(page, role, 'appeals', QUEUE.appeals, body, shown);
}

export function appealPage(
  page: PageContext,
  role: OperatorRole,
  file: AppealFile,
  mayDecide: boolean,
  shown?: PageNotice,
): string {
  const { appeal, decision, report, evidence } = file;
  const body = html`<h2>${say(page, { de: 'Die angefochtene Entscheidung', en: 'The decision appealed' })}</h2>
${dl(page, [
  [{ de: 'Entscheidung', en: 'Decision' }, decision.id],
  [{ de: 'Maßnahme', en: 'Action' }, decision.action],
  [{ de: 'Grundlage', en: 'Ground' }, decision.ground],
  [{ de: 'Betrifft', en: 'About' }, `${decision.about_type} ${decision.about_id}`],
  [
    { de: 'Konto', en: 'Account' },
    decision.account_id && html`<a href="/console/accounts/${decision.account_id}">${decision.account_id}</a>`,
  ],
  [{ de: 'Entschieden', en: 'Decided' }, when(page, decision.created_at)],
  [{ de: 'Auf Meldung', en: 'On report' }, report?.id],
])}
<p class="quote">${decision.explanation}</p>
${report && html`<h3>${say(page, { de: 'Der Inhalt zur Zeit der Meldung', en: 'The content when it was reported' })}</h3>${evidenceOf(page, evidence, false)}`}
<h2>${say(page, { de: 'Die Beschwerde', en: 'The appeal' })}</h2>
${dl(page, [
  [{ de: 'Beschwerde', en: 'Appeal' }, appeal.id],
  [{ de: 'Eingegangen', en: 'Filed' }, when(page, appeal.created_at)],
  [{ de: 'Stand', en: 'Status' }, appeal.status],
])}
<p class="quote">${appeal.text}</p>
${
  appeal.status === 'pending' &&
  (mayDecide
    ? html`<h2>${say(page, { de: 'Entscheiden', en: 'Decide' })}</h2>
${form(
  page,
  `/console/appeals/${appeal.id}/decide`,
  html`<fieldset class="field"><legend>${say(page, { de: 'Ergebnis', en: 'Outcome' })}</legend>
<div class="choice"><input type="radio" id="upheld" name="outcome" value="upheld" checked><label for="upheld">${say(page, { de: 'Entscheidung bleibt', en: 'Uphold the decision' })}</label></div>
<div class="choice"><input type="radio" id="reversed" name="outcome" value="reversed"><label for="reversed">${say(page, { de: 'Entscheidung aufheben (sofort rückgängig)', en: 'Reverse the decision (undone at once)' })}</label></div>
</fieldset>
${reasonField(page, 'explanation', REASON, '', 'explanation')}
<button type="submit">${say(page, { de: 'Beschwerde entscheiden', en: 'Decide the appeal' })}</button>`,
)}`
    : html`<div class="notice info" role="status"><p>${say(page, {
        de: 'Sie haben die angefochtene Entscheidung getroffen; über die Beschwerde entscheidet eine andere Person (Vier-Augen-Prinzip).',
        en: 'You took the decision appealed; another operator decides the appeal (four eyes).',
      })}</p></div>`)
}`;
  return consolePage(page, role, 'appeals', { de: 'Beschwerde', en: 'Appeal' }, body, shown);
}

// ---------------------------------------------------------------- claims

export function claimsPage(
  page: PageContext,
  role: OperatorRole,
  rows: { id: string; booking_id: string; amount_cents: number; created_at: string; answered_at: string | null }[],
  now: Date,
  shown?: PageNotice,
): string {
  const lines = rows.map(
    (row) =>
      html`<tr><th scope="row"><a href="/console/claims/${row.id}">${row.id}</a></th><td>${row.booking_id}</td><td>${euros(row.amount_cents)}</td><td>${age(page, row.answered_at ?? row.created_at, now)}</td></tr>`,
  );
  const body = queueTable(
    page,
    { de: 'Bestrittene Ansprüche, älteste zuerst', en: 'Disputed claims, oldest first' },
    [
      { de: 'Anspruch', en: 'Claim' },
      { de: 'Buchung', en: 'Booking' },
      { de: 'Gefordert', en: 'Claimed' },
      { de: 'Bestritten seit', en: 'Disputed for' },
    ],
    lines,
  );
  return consolePage(page, role, 'claims', QUEUE.claims, body, shown);
}

export function claimPage(
  page: PageContext,
  role: OperatorRole,
  file: ClaimFile,
  values: { amount_eur?: string; explanation?: string },
  shown?: PageNotice,
  conversation?: ConversationLine[],
): string {
  const { claim, photos, booking, payments } = file;
  const body = html`${dl(page, [
    [{ de: 'Anspruch', en: 'Claim' }, claim.id],
    [{ de: 'Stand', en: 'Status' }, claim.status],
    [{ de: 'Gefordert', en: 'Claimed' }, euros(claim.amount_cents)],
    [
      { de: 'Vermieter:in', en: 'Owner' },
      html`<a href="/console/accounts/${claim.owner_account_id}">${claim.owner_account_id}</a>`,
    ],
    [
      { de: 'Mieter:in', en: 'Renter' },
      html`<a href="/console/accounts/${claim.renter_account_id}">${claim.renter_account_id}</a>`,
    ],
  ])}
<h2>${say(page, { de: 'Was die Vermieterin oder der Vermieter sagt', en: 'What the owner says' })}</h2>
<p class="quote">${claim.text}</p>
${photos.length > 0 && photoLinks(photos)}
<h2>${say(page, { de: 'Was die Mieterin oder der Mieter sagt', en: 'What the renter says' })}</h2>
<p class="quote">${claim.response_text ?? say(page, { de: '(keine Antwort)', en: '(no answer)' })}</p>
<h2>${say(page, { de: 'Das Gespräch der beiden', en: 'Their conversation' })}</h2>
${
  conversation
    ? conversationList(page, conversation, undefined)
    : form(
        page,
        `/console/claims/${claim.id}/read`,
        html`<button type="submit" class="secondary">${say(page, { de: 'Gespräch der beiden lesen (wird protokolliert)', en: 'Read their conversation (recorded)' })}</button>`,
      )
}
<h2>${say(page, { de: 'Die Buchung', en: 'The booking' })}</h2>
${
  booking
    ? dl(page, [
        [{ de: 'Buchung', en: 'Booking' }, booking.id],
        [{ de: 'Gegenstand', en: 'Item' }, `${booking.title} (${booking.listing_id})`],
        [{ de: 'Zeitraum', en: 'Days' }, `${booking.start_date} – ${booking.end_date}`],
        [{ de: 'Stand', en: 'Status' }, booking.status],
        [{ de: 'Gebucht', en: 'Booked' }, when(page, booking.created_at)],
        [{ de: 'Bestätigt', en: 'Confirmed' }, booking.decided_at && when(page, booking.decided_at)],
        [{ de: 'Zurückgegeben', en: 'Returned' }, booking.returned_at && when(page, booking.returned_at)],
        [{ de: 'Miete', en: 'Rent' }, euros(booking.price_cents)],
        [{ de: 'Kaution', en: 'Deposit' }, euros(booking.deposit_cents)],
      ])
    : ''
}
<table><caption>${say(page, { de: 'Zahlungen der Buchung', en: 'The booking’s payments' })}</caption>
<thead><tr><th scope="col">${say(page, { de: 'Zahlung', en: 'Payment' })}</th><th scope="col">${say(page, { de: 'Art', en: 'Kind' })}</th><th scope="col">${say(page, { de: 'Stand', en: 'Status' })}</th><th scope="col">${say(page, { de: 'Betrag', en: 'Amount' })}</th><th scope="col">${say(page, { de: 'Angelegt', en: 'Created' })}</th></tr></thead>
<tbody>${payments.map(
    (row) =>
      html`<tr><td>${row.id}</td><td>${row.kind}</td><td>${row.status}</td><td>${euros(row.amount_cents)}</td><td>${when(page, row.created_at)}</td></tr>`,
  )}</tbody></table>
${
  claim.status === 'disputed' &&
  html`<h2>${say(page, { de: 'Entscheiden', en: 'Decide' })}</h2>
${form(
  page,
  `/console/claims/${claim.id}/decide`,
  html`<div class="field"><label for="amount_eur">${say(page, {
    de: `Betrag, den die Vermieterseite behält (0 bis ${(claim.amount_cents / 100).toFixed(2)} €)`,
    en: `Amount the owner keeps (0 to ${(claim.amount_cents / 100).toFixed(2)} €)`,
  })}</label><input type="number" id="amount_eur" name="amount_eur" min="0" max="${(claim.amount_cents / 100).toFixed(2)}" step="0.01" required value="${values.amount_eur ?? ''}"></div>
${reasonField(page, 'explanation', REASON, values.explanation ?? '', 'explanation')}
<button type="submit">${say(page, { de: 'Betrag festlegen', en: 'Decide the amount' })}</button>`,
)}`
}`;
  return consolePage(page, role, 'claims', { de: 'Schadensanspruch', en: 'Damage claim' }, body, shown);
}

// ---------------------------------------------------------------- accounts

export function accountsPage(
  page: PageContext,
  role: OperatorRole,
  query: string,
  rows:
    | {
        id: string;
        name: string;
        email: string;
        created_at: string;
        suspended_at: string | null;
        erased_at: string | null;
      }[]
    | undefined,
  shown?: PageNotice,
): string {
  const state = (row: { suspended_at: string | null; erased_at: string | null }) =>
    row.erased_at
      ? say(page, { de: 'gelöscht', en: 'erased' })
      : row.suspended_at
        ? say(page, { de: 'gesperrt', en: 'suspended' })
        : say(page, { de: 'aktiv', en: 'active' });
  const body = html`<form method="get" action="/console/accounts" role="search">
<div class="field"><label for="q">${say(page, { de: 'E-Mail, Name oder Konto-ID', en: 'E-mail, name or account id' })}</label><input type="search" id="q" name="q" value="${query}" maxlength="200"></div>
<button type="submit">${say(page, { de: 'Suchen', en: 'Search' })}</button>
</form>
${
  rows &&
  (rows.length === 0
    ? html`<p>${say(page, { de: 'Kein Konto gefunden.', en: 'No account found.' })}</p>`
    : html`<table><caption>${say(page, { de: 'Gefundene Konten (höchstens 25)', en: 'Accounts found (at most 25)' })}</caption>
<thead><tr><th scope="col">${say(page, { de: 'Name', en: 'Name' })}</th><th scope="col">E-Mail</th><th scope="col">${say(page, { de: 'Seit', en: 'Since' })}</th><th scope="col">${say(page, { de: 'Stand', en: 'State' })}</th></tr></thead>
<tbody>${rows.map(
        (row) =>
          html`<tr><th scope="row"><a href="/console/accounts/${row.id}">${row.erased_at ? row.id : row.name}</a></th><td>${row.erased_at ? '–' : row.email}</td><td>${when(page, row.created_at)}</td><td>${state(row)}</td></tr>`,
      )}</tbody></table>`)
}`;
  return consolePage(page, role, 'accounts', { de: 'Konten', en: 'Accounts' }, body, shown);
}

/** Whether the operator's sign-in is recent enough for a destructive action, and where to renew it. */
export interface Reauth {
  recent: boolean;
  minutes: number;
  next: string;
}

/** A destructive action's form, or (sign-in too old) the way to sign in again first. */
function destructive(page: PageContext, reauth: Reauth, inner: SafeHtml): SafeHtml {
  if (reauth.recent) return inner;
  return form(
    page,
    '/console/reauthenticate',
    html`<p>${say(page, {
      de: `Dafür melden Sie sich bitte erneut an (die letzte Anmeldung ist älter als ${reauth.minutes} Minuten).`,
      en: `For this, sign in again first (your last sign-in is older than ${reauth.minutes} minutes).`,
    })}</p><input type="hidden" name="next" value="${reauth.next}"><button type="submit" class="secondary">${say(page, { de: 'Erneut anmelden', en: 'Sign in again' })}</button>`,
  );
}

export function accountPage(
  page: PageContext,
  role: OperatorRole,
  file: AccountFile,
  reauth: Reauth,
  shown?: PageNotice,
): string {
  const { account, objects, keys, grants, decisions, operator } = file;
  const erased = account.erased_at !== null;
  const body = html`${dl(page, [
    [{ de: 'Konto', en: 'Account' }, account.id],
    [{ de: 'Name', en: 'Name' }, erased ? say(page, { de: '(gelöscht)', en: '(erased)' }) : account.name],
    [{ de: 'E-Mail', en: 'E-mail' }, erased ? '–' : account.email],
    [{ de: 'Art', en: 'Type' }, account.account_type],
    [{ de: 'Seit', en: 'Since' }, when(page, account.created_at)],
    [{ de: 'Gesperrt seit', en: 'Suspended since' }, account.suspended_at && when(page, account.suspended_at)],
    [{ de: 'Gelöscht', en: 'Erased' }, account.erased_at && when(page, account.erased_at)],
    [{ de: 'Betreiberrolle', en: 'Operator role' }, operator && say(page, ROLE[operator.role])],
  ])}
<h2>${say(page, { de: 'Objekte', en: 'Objects' })}</h2>
${dl(page, [
  [{ de: 'Aufträge', en: 'Jobs' }, objects.jobs],
  [{ de: 'Angebote zum Leihen', en: 'Listings' }, objects.listings],
  [{ de: 'Buchungen (als Mieter:in)', en: 'Bookings (as renter)' }, objects.bookings],
  [{ de: 'Helferprofile', en: 'Helper profiles' }, objects.helpers.map((helper) => helper.id).join(', ') || null],
])}
<h2>${say(page, { de: 'Schlüssel', en: 'Keys' })}</h2>
${
  keys.length === 0
    ? html`<p>${say(page, { de: 'Keine.', en: 'None.' })}</p>`
    : html`<table><thead><tr><th scope="col">${say(page, { de: 'Schlüssel', en: 'Key' })}</th><th scope="col">${say(page, { de: 'Angelegt', en: 'Created' })}</th><th scope="col">${say(page, { de: 'Widerrufen', en: 'Revoked' })}</th></tr></thead><tbody>${keys.map(
        (key) =>
          html`<tr><td>${key.id} (…${key.last4})</td><td>${when(page, key.created_at)}</td><td>${key.revoked_at ? when(page, key.revoked_at) : '–'}</td></tr>`,
      )}</tbody></table>`
}
<h2>${say(page, { de: 'Verbundene Apps', en: 'Connected apps' })}</h2>
${
  grants.length === 0
    ? html`<p>${say(page, { de: 'Keine.', en: 'None.' })}</p>`
    : html`<ul>${grants.map((grant) => html`<li>${grant.client_name ?? grant.client_id}: ${grant.scopes.join(', ')}</li>`)}</ul>`
}
<h2>${say(page, { de: 'Meldungen zu seinen Inhalten', en: 'Reports about its content' })}</h2>
${
  file.reports.length === 0
    ? html`<p>${say(page, { de: 'Keine.', en: 'None.' })}</p>`
    : html`<table><thead><tr><th scope="col">${say(page, { de: 'Meldung', en: 'Report' })}</th><th scope="col">${say(page, { de: 'Betrifft', en: 'About' })}</th><th scope="col">${say(page, { de: 'Grund', en: 'Ground' })}</th><th scope="col">${say(page, { de: 'Stand', en: 'Status' })}</th><th scope="col">${say(page, { de: 'Eingegangen', en: 'Filed' })}</th></tr></thead><tbody>${file.reports.map(
        (row) =>
          html`<tr><td>${roleAllows(role, 'moderator') ? html`<a href="/console/reports/${row.id}">${row.id}</a>` : row.id}</td><td>${row.about_type} ${row.about_id}</td><td>${reasonLabel(page.language, row.reason)}</td><td>${row.status}</td><td>${when(page, row.created_at)}</td></tr>`,
      )}</tbody></table>`
}
<h2>${say(page, { de: 'Entscheidungen zu diesem Konto', en: 'Decisions about this account' })}</h2>
${decisionsTable(page, decisions)}
${
  !erased &&
  roleAllows(role, 'moderator') &&
  html`<h2>${say(page, { de: 'Sperren oder entsperren', en: 'Suspend or restore' })}</h2>
${destructive(
  page,
  reauth,
  account.suspended_at === null
    ? form(
        page,
        `/console/accounts/${account.id}/suspend`,
        html`<div class="field"><label for="ground">${say(page, { de: 'Grundlage', en: 'Ground' })}</label><select id="ground" name="ground"><option value="terms">${say(page, { de: 'Nutzungsbedingungen', en: 'Terms of service' })}</option><option value="legal">${say(page, { de: 'Gesetz', en: 'Law' })}</option></select></div>
${reasonField(page, 'suspend-reason', { de: 'Begründung (DSA Art. 17, geht an das Konto)', en: 'Statement of reasons (DSA Art. 17, sent to the account)' })}
<button type="submit">${say(page, { de: 'Konto sperren', en: 'Suspend the account' })}</button>`,
      )
    : form(
        page,
        `/console/accounts/${account.id}/restore`,
        html`${reasonField(page, 'restore-reason', REASON)}<button type="submit">${say(page, { de: 'Sperre aufheben', en: 'Lift the suspension' })}</button>`,
      ),
)}`
}
${
  !erased &&
  role === 'admin' &&
  html`<h2>${say(page, { de: 'Löschen', en: 'Erase' })}</h2>
${destructive(
  page,
  reauth,
  form(
    page,
    `/console/accounts/${account.id}/erase`,
    html`<p>${say(page, {
      de: 'Wie DELETE /v1/me: Name, E-Mail, Texte und Schlüssel sind danach für immer fort (docs/privacy.md). Nur auf nachgewiesenen Wunsch der Person.',
      en: 'As DELETE /v1/me: name, e-mail, texts and keys are gone for good (docs/privacy.md). Only on the person’s proven request.',
    })}</p>
<div class="field"><label for="confirm">${say(page, { de: 'Zur Bestätigung die E-Mail-Adresse des Kontos', en: 'To confirm, the account’s e-mail address' })}</label><input type="text" id="confirm" name="confirm" autocomplete="off" required></div>
${reasonField(page, 'erase-reason', { de: 'Begründung (z. B. Brief vom …)', en: 'Reason (e.g. letter of …)' })}
<button type="submit">${say(page, { de: 'Konto löschen', en: 'Erase the account' })}</button>`,
  ),
)}`
}`;
  return consolePage(page, role, 'accounts', { de: 'Konto', en: 'Account' }, body, shown);
}

// ---------------------------------------------------------------- operators

export function operatorsPage(
  page: PageContext,
  operators: { account_id: string; role: OperatorRole; email: string; name: string; created_at: string }[],
  reauth: Reauth,
  shown?: PageNotice,
): string {
  const roleOptions = html`<option value="support">${say(page, ROLE.support)}</option><option value="moderator">${say(page, ROLE.moderator)}</option><option value="admin">${say(page, ROLE.admin)}</option>`;
  const body = html`<table><caption>${say(page, { de: 'Wer die Konsole benutzt', en: 'Who uses the console' })}</caption>
<thead><tr><th scope="col">${say(page, { de: 'Name', en: 'Name' })}</th><th scope="col">E-Mail</th><th scope="col">${say(page, { de: 'Rolle', en: 'Role' })}</th><th scope="col">${say(page, { de: 'Aktion', en: 'Action' })}</th></tr></thead>
<tbody>${operators.map(
    (row) =>
      html`<tr><th scope="row"><a href="/console/accounts/${row.account_id}">${row.name}</a></th><td>${row.email}</td><td>${say(page, ROLE[row.role])}</td><td>${destructive(
        page,
        reauth,
        form(
          page,
          '/console/operators/remove',
          html`<input type="hidden" name="email" value="${row.email}">${reasonField(page, `remove-${row.account_id}`, { de: `Warum ${row.name} die Rolle verliert`, en: `Why ${row.name} loses the role` })}<button type="submit" class="secondary">${say(page, { de: 'Rolle entziehen', en: 'Remove the role' })}</button>`,
        ),
      )}</td></tr>`,
  )}</tbody></table>
<h2>${say(page, { de: 'Rolle vergeben', en: 'Give a role' })}</h2>
${destructive(
  page,
  reauth,
  form(
    page,
    '/console/operators/add',
    html`<div class="field"><label for="email">${say(page, { de: 'E-Mail-Adresse des Kontos', en: 'The account’s e-mail address' })}</label><input type="email" id="email" name="email" required autocomplete="off"></div>
<div class="field"><label for="role">${say(page, { de: 'Rolle', en: 'Role' })}</label><select id="role" name="role">${roleOptions}</select></div>
${reasonField(page, 'add-reason', REASON)}
<button type="submit">${say(page, { de: 'Rolle vergeben', en: 'Give the role' })}</button>`,
  ),
)}`;
  return consolePage(page, 'admin', 'operators', { de: 'Betreiber', en: 'Operators' }, body, shown);
}

// ---------------------------------------------------------------- audit log

export interface AuditFilterView {
  actor: string;
  action: string;
  from: string;
  to: string;
}

export function auditLogPage(page: PageContext, filter: AuditFilterView, rows: AuditLogRow[], error?: Words): string {
  const field = (name: keyof AuditFilterView, words: Words, type: 'text' | 'date') =>
    html`<div class="field"><label for="${name}">${say(page, words)}</label><input type="${type}" id="${name}" name="${name}" value="${filter[name]}"></div>`;
  const lines = rows.map(
    (row) =>
      html`<tr><td>${row.at}</td><td>${row.actor}</td><td>${row.actor_role}</td><td>${row.action}</td><td>${row.target_type} ${row.target_id}</td><td>${row.reason ?? ''}</td></tr>`,
  );
  const body = html`<form method="get" action="/console/audit">
${field('actor', { de: 'Wer (Konto-ID oder cli)', en: 'Who (account id or cli)' }, 'text')}
${field('action', { de: 'Aktion, z. B. claim.decided', en: 'Action, e.g. claim.decided' }, 'text')}
${field('from', { de: 'Von (Tag)', en: 'From (day)' }, 'date')}
${field('to', { de: 'Bis vor (Tag)', en: 'Until before (day)' }, 'date')}
<button type="submit">${say(page, { de: 'Filtern', en: 'Filter' })}</button>
</form>
<table>
<caption>${say(page, {
    de: 'Jede Handlung der Betreiber, unveränderlich (CSV: npm run admin -- audit export)',
    en: 'Every operator action, unchangeable (CSV: npm run admin -- audit export)',
  })}</caption>
<thead><tr><th scope="col">${say(page, { de: 'Zeit (UTC)', en: 'Time (UTC)' })}</th><th scope="col">${say(page, {
    de: 'Wer',
    en: 'Who',
  })}</th><th scope="col">${say(page, { de: 'Rolle', en: 'Role' })}</th><th scope="col">${say(page, {
    de: 'Aktion',
    en: 'Action',
  })}</th><th scope="col">${say(page, { de: 'Ziel', en: 'Target' })}</th><th scope="col">${say(page, {
    de: 'Begründung',
    en: 'Reason',
  })}</th></tr></thead>
<tbody>${lines}</tbody>
</table>`;
  return consolePage(
    page,
    'admin',
    'audit',
    { de: 'Protokoll', en: 'Audit log' },
    body,
    error && { kind: 'error', ...error },
  );
}
