import type { Language } from '../../domain/notifications.js';
import { translate } from '../../i18n/index.js';
import { html, SafeHtml } from './html.js';
import { pageShell } from './page-shell.js';

/**
 * The page of a notification e-mail's unsubscribe link (issue 36), in the account's language, no
 * script: GET asks (a link scanner that follows it stops nothing), the button posts, and the RFC
 * 8058 one-click POST of a mail program lands on the same address.
 */

const STYLE = new SafeHtml(`
:root{color-scheme:light dark;--fg:#1b1f24;--bg:#f4f6f8;--card:#fff;--accent:#0b5cad}
@media (prefers-color-scheme:dark){:root{--fg:#e8eaed;--bg:#15181c;--card:#1f2328;--accent:#7cb7ff}}
body{margin:0;background:var(--bg);color:var(--fg);font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:36rem;margin:2rem auto;padding:2rem;background:var(--card);border-radius:12px}
h1{margin:0 0 .75rem;font-size:1.5rem}
a{color:var(--accent)}
button{font:inherit;font-weight:600;color:#fff;background:var(--accent);border:2px solid var(--accent);border-radius:6px;padding:.55rem 1.2rem;cursor:pointer}
@media (prefers-color-scheme:dark){button{color:#0b1a2b}}
button:focus,a:focus{outline:3px solid var(--accent);outline-offset:2px}
`);

function layout(language: Language, body: SafeHtml): string {
  const title = translate(language, 'unsubscribe.title');
  return pageShell({
    language,
    title: `${title} – Karlsruhe Marketplace`,
    style: STYLE,
    noindex: true,
    main: html`<h1>${title}</h1>
${body}`,
  });
}

/** Asks before it stops anything: one button, posting back to the same address. */
export function unsubscribeAskPage(language: Language, kindName: string, action: string): string {
  return layout(
    language,
    html`<p>${translate(language, 'unsubscribe.confirm', { kindName })}</p>
<form method="post" action="${action}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">${translate(language, 'unsubscribe.button')}</button></form>`,
  );
}

export function unsubscribedPage(language: Language, kindName: string): string {
  return layout(language, html`<p role="status">${translate(language, 'unsubscribe.done', { kindName })}</p>`);
}

export function invalidUnsubscribePage(language: Language): string {
  return layout(language, html`<p role="alert">${translate(language, 'unsubscribe.invalid')}</p>`);
}
