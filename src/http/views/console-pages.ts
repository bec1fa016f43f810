import type { AuditLogRow, OperatorRole, QueueFigure, QueueName } from '../../services/console.js';
import { html, type SafeHtml } from './html.js';
import { layout, type PageContext, type Words } from './sign-in-pages.js';

/**
 * The operators' console (issue 33), server-rendered in the sign-in pages' layout: German or
 * English, no script, the page's one style allowed by its hash (no unsafe-inline).
 */

const say = (page: PageContext, words: Words) => words[page.language];

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

/** How long ago, in whole hours or days. */
function age(page: PageContext, since: string, now: Date): string {
  const hours = Math.max(0, Math.floor((now.getTime() - Date.parse(since)) / 3_600_000));
  if (hours < 48) return page.language === 'de' ? `${hours} Std.` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return page.language === 'de' ? `${days} Tage` : `${days} days`;
}

function nav(page: PageContext, role: OperatorRole, here: 'overview' | 'audit'): SafeHtml {
  const link = (href: string, words: Words, current: boolean) =>
    html`<li><a href="${href}"${current ? html` aria-current="page"` : ''}>${say(page, words)}</a></li>`;
  return html`<nav aria-label="${say(page, { de: 'Konsole', en: 'Console' })}"><ul>
${link('/console', { de: 'Übersicht', en: 'Overview' }, here === 'overview')}
${role === 'admin' && link('/console/audit', { de: 'Protokoll', en: 'Audit log' }, here === 'audit')}
<li><a href="/account">${say(page, { de: 'Mein Konto', en: 'My account' })}</a></li>
</ul></nav>
<p>${say(page, { de: 'Ihre Rolle', en: 'Your role' })}: <strong>${say(page, ROLE[role])}</strong></p>`;
}

export function overviewPage(
  page: PageContext,
  role: OperatorRole,
  queues: { queue: QueueName; figure: QueueFigure }[],
  now: Date,
): string {
  const rows = queues.map(
    ({ queue, figure }) =>
      html`<tr><th scope="row">${say(page, QUEUE[queue])}</th><td>${figure.waiting}</td><td>${
        figure.oldest ? age(page, figure.oldest, now) : '–'
      }</td></tr>`,
  );
  const body = html`${nav(page, role, 'overview')}
<h2>${say(page, { de: 'Warteschlangen', en: 'Queues' })}</h2>
<table>
<caption>${say(page, { de: 'Was auf eine Entscheidung wartet', en: 'What waits for a decision' })}</caption>
<thead><tr><th scope="col">${say(page, { de: 'Warteschlange', en: 'Queue' })}</th><th scope="col">${say(page, {
    de: 'Wartend',
    en: 'Waiting',
  })}</th><th scope="col">${say(page, { de: 'Ältester seit', en: 'Oldest for' })}</th></tr></thead>
<tbody>${rows}</tbody>
</table>`;
  return layout(page, { de: 'Konsole', en: 'Console' }, body);
}

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
  const body = html`${nav(page, 'admin', 'audit')}
${error && html`<div class="notice error" role="alert"><p>${say(page, error)}</p></div>`}
<form method="get" action="/console/audit">
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
  return layout(page, { de: 'Protokoll', en: 'Audit log' }, body);
}
