import type { Words } from '../../domain/oauth-scopes.js';
import { html } from './html.js';
import { layout, notice, type PageContext, type PageNotice, say } from './sign-in-pages.js';

/**
 * The consent page of the authorization server (issue 31): which app asks, who registered it and
 * whether the operator reviewed that developer, and each scope in plain words with a box the
 * person can clear. No script; the form carries its CSRF token.
 */
export interface ConsentView {
  uid: string;
  client: { name: string };
  /** The developer who registered the app (their organisation, else their name), or null for a self-registered client. */
  developer: { name: string; reviewed: boolean } | null;
  person: { name: string; email: string };
  scopes: { scope: string; words: Words; fixed: boolean }[];
  /** Where the person's answer goes back to (the app's redirect URI's origin), shown so a look-alike is noticed. */
  returnsTo: string;
}

export function consentPage(page: PageContext, view: ConsentView, shown?: PageNotice): string {
  const who = view.developer
    ? html`${say(page, { de: 'Registriert von', en: 'Registered by' })} <strong>${view.developer.name}</strong>${
        view.developer.reviewed
          ? html` · ${say(page, { de: 'Entwickler vom Betreiber geprüft', en: 'developer reviewed by the operator' })}`
          : html` · ${say(page, { de: 'Entwickler nicht geprüft', en: 'developer not reviewed' })}`
      }`
    : html`${say(page, { de: 'Selbst registriert (dynamische Registrierung); kein geprüfter Entwickler steht dahinter.', en: 'Registered by itself (dynamic registration); no reviewed developer stands behind it.' })}`;
  const boxes = view.scopes.map((item) =>
    item.fixed
      ? html`<li><input type="hidden" name="scope" value="${item.scope}">${say(page, item.words)}</li>`
      : html`<li class="choice"><input type="checkbox" id="scope-${item.scope}" name="scope" value="${item.scope}" checked><label for="scope-${item.scope}">${say(page, item.words)}</label></li>`,
  );
  const body = html`${notice(page, shown)}
<p><strong>${view.client.name}</strong> ${say(page, { de: 'möchte in Ihrem Namen handeln.', en: 'wants to act for you.' })}</p>
<p>${who}</p>
<p>${say(page, { de: 'Angemeldet als', en: 'Signed in as' })} ${view.person.name} (${view.person.email}). ${say(page, { de: 'Ihre Antwort geht zurück an', en: 'Your answer goes back to' })} <code>${view.returnsTo}</code>.</p>
<form method="post" action="/oauth/interaction/${view.uid}/consent">
<input type="hidden" name="_csrf" value="${page.csrf}">
<fieldset class="field"><legend>${say(page, { de: 'Die App darf:', en: 'The app may:' })}</legend>
<p class="hint">${say(page, { de: 'Entfernen Sie die Haken bei dem, was Sie nicht erlauben wollen. Ihr Konto löschen darf keine App.', en: 'Clear what you do not want to allow. No app may erase your account.' })}</p>
<ul>${boxes}</ul>
</fieldset>
<button type="submit" name="decision" value="allow">${say(page, { de: 'Erlauben', en: 'Allow' })}</button>
<button type="submit" name="decision" value="deny" class="secondary">${say(page, { de: 'Ablehnen', en: 'Deny' })}</button>
</form>
<p>${say(page, { de: 'Verbundene Apps sehen und trennen Sie jederzeit unter', en: 'See and disconnect connected apps at any time on' })} <a href="/account">${say(page, { de: 'Ihr Konto', en: 'Your account' })}</a>.</p>`;
  return layout(page, { de: `${view.client.name} verbinden`, en: `Connect ${view.client.name}` }, body);
}
