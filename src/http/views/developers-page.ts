import {
  FIELD_SPECS,
  type FieldErrors,
  FORM_FIELDS,
  type FormField,
  type FormLanguage,
  type FormValues,
  type Words,
} from './developers-form.js';
import { html, SafeHtml } from './html.js';
import { pageShell } from './page-shell.js';

export interface PageFacts {
  reviewHours: number;
  developerLimit: number;
  anonymousLimit: number;
}

// No external assets (the page must work offline and under a strict CSP): one inline stylesheet.
const STYLE = new SafeHtml(`
:root{color-scheme:light dark;--fg:#1b1f24;--muted:#4f5965;--bg:#f4f6f8;--card:#fff;--line:#c5ccd3;--accent:#0b5cad;--error:#b3261e}
@media (prefers-color-scheme:dark){:root{--fg:#e8eaed;--muted:#b2bac2;--bg:#15181c;--card:#1f2328;--line:#4a525b;--accent:#7cb7ff;--error:#ff8a80}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:40rem;margin:2rem auto;padding:2rem;background:var(--card);border-radius:12px;box-shadow:0 1px 4px rgb(0 0 0/.12)}
@media (max-width:42rem){main{margin:0;border-radius:0;padding:1.25rem}}
h1{margin:0 0 .5rem;font-size:1.75rem;line-height:1.2}
a{color:var(--accent)}
.lead{color:var(--muted);margin-top:0}
.field{margin:0 0 1.25rem;padding:0;border:0}
label,legend{display:block;font-weight:600;padding:0}
.optional{font-weight:400;color:var(--muted)}
.hint{margin:.1rem 0 .35rem;color:var(--muted);font-size:.9rem}
input[type=text],input[type=email],textarea{width:100%;padding:.55rem .65rem;font:inherit;color:inherit;background:var(--card);border:2px solid var(--line);border-radius:6px}
textarea{min-height:7rem;resize:vertical}
input:focus,textarea:focus,button:focus,a:focus{outline:3px solid var(--accent);outline-offset:2px}
.choice{display:flex;gap:.5rem;align-items:center;margin:.3rem 0}
.choice input{width:1.2rem;height:1.2rem;accent-color:var(--accent)}
.choice label{font-weight:400}
.has-error{border-left:4px solid var(--error);padding-left:.9rem}
.has-error input[type=text],.has-error input[type=email],.has-error textarea{border-color:var(--error)}
.error{margin:.1rem 0 .35rem;color:var(--error);font-weight:600}
.summary{border:3px solid var(--error);border-radius:8px;padding:.75rem 1rem;margin:1rem 0 1.5rem}
.summary h2{margin:0 0 .25rem;font-size:1.15rem}
.summary ul{margin:0;padding-left:1.2rem}
.summary a{color:var(--error);font-weight:600}
button{font:inherit;font-weight:600;color:#fff;background:var(--accent);border:0;border-radius:6px;padding:.65rem 1.4rem;cursor:pointer}
@media (prefers-color-scheme:dark){button{color:#0b1a2b}}
.panel{background:var(--accent);color:var(--card);border-radius:8px;padding:1rem 1.25rem;margin:1rem 0}
.panel p{margin:0}
.panel code{font-size:1.35rem;font-weight:700;word-break:break-all}
header{display:flex;justify-content:flex-end;max-width:40rem;margin:0 auto;padding:1rem 2rem 0}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
footer{margin-top:2rem;font-size:.9rem;color:var(--muted)}
`);

const OTHER: Record<FormLanguage, { code: FormLanguage; name: string }> = {
  de: { code: 'en', name: 'English' },
  en: { code: 'de', name: 'Deutsch' },
};

function layout(language: FormLanguage, title: string, body: SafeHtml): string {
  const other = OTHER[language];
  return pageShell({
    language,
    title: `${title} – Karlsruhe Marketplace API`,
    style: STYLE,
    noindex: false,
    header: html`<header><nav aria-label="${language === 'de' ? 'Sprache' : 'Language'}"><a href="/developers?lang=${other.code}" hreflang="${other.code}" lang="${other.code}">${other.name}</a></nav></header>`,
    main: html`${body}
<footer>Karlsruhe Local Services Marketplace and Item Lending API · <a href="/docs">${language === 'de' ? 'API-Referenz (englisch)' : 'API reference'}</a></footer>`,
  });
}

/** The label, hint and error of a field, and the attributes that tie them to its input. */
function describe(field: FormField, errors: FieldErrors, language: FormLanguage) {
  const hint = FIELD_SPECS[field].hint?.[language];
  const error = errors[field];
  const ids = [hint && `${field}-hint`, error && `${field}-error`].filter(Boolean).join(' ');
  return {
    hint: hint && html`<p class="hint" id="${field}-hint">${hint}</p>`,
    error:
      error &&
      html`<p class="error" id="${field}-error"><span class="visually-hidden">${language === 'de' ? 'Fehler' : 'Error'}: </span>${error}</p>`,
    aria: html`${ids && html` aria-describedby="${ids}"`}${error && html` aria-invalid="true"`}`,
    css: error ? 'field has-error' : 'field',
  };
}

function textField(
  language: FormLanguage,
  field: FormField,
  values: FormValues,
  errors: FieldErrors,
  attrs: SafeHtml,
): SafeHtml {
  const { optional } = FIELD_SPECS[field];
  const label = FIELD_SPECS[field].label[language];
  const d = describe(field, errors, language);
  const control =
    field === 'intended_use'
      ? html`<textarea id="${field}" name="${field}" rows="5"${attrs}${d.aria}>${values[field] ?? ''}</textarea>`
      : html`<input id="${field}" name="${field}" value="${values[field] ?? ''}"${attrs}${d.aria}>`;
  return html`<div class="${d.css}">
<label for="${field}">${label}${optional && html` <span class="optional">(${language === 'de' ? 'freiwillig' : 'optional'})</span>`}</label>
${d.hint}${d.error}${control}
</div>`;
}

function accountTypeField(language: FormLanguage, values: FormValues, errors: FieldErrors): SafeHtml {
  const d = describe('account_type', errors, language);
  const choice = (value: string, label: Words, id: string) =>
    html`<div class="choice"><input type="radio" id="${id}" name="account_type" value="${value}"${values.account_type === value && html` checked`}${d.aria}><label for="${id}">${label[language]}</label></div>`;
  return html`<fieldset class="${d.css}">
<legend>${FIELD_SPECS.account_type.label[language]}</legend>
${d.hint}${d.error}${choice('private', { en: 'Private – for yourself', de: 'Privat – für mich selbst' }, 'account_type')}${choice('commercial', { en: 'Commercial – for a business', de: 'Gewerblich – für ein Unternehmen' }, 'account_type-commercial')}
</fieldset>`;
}

/** The form, with the visitor's values and errors; `problem` is a message about the whole submission. */
export function registrationPage(
  values: FormValues,
  errors: FieldErrors,
  facts: PageFacts,
  problem?: string,
  language: FormLanguage = 'en',
): string {
  const de = language === 'de';
  const failed = FORM_FIELDS.filter((field) => errors[field]);
  const correct = de
    ? `Bitte korrigieren Sie ${failed.length === 1 ? 'diese Angabe' : 'diese Angaben'}`
    : `Please correct ${failed.length === 1 ? 'this' : 'these'}`;
  const summary =
    (failed.length > 0 || problem) &&
    html`<div class="summary" role="alert" aria-labelledby="summary-title">
<h2 id="summary-title">${problem ? (de ? 'Ihre Anfrage wurde nicht eingereicht' : 'Your request was not filed') : correct}</h2>
${problem && html`<p>${problem}</p>`}${failed.length > 0 && html`<ul>${failed.map((field) => html`<li><a href="#${field}">${errors[field]}</a></li>`)}</ul>`}
</div>`;
  const title = de ? 'Einen Entwicklerschlüssel anfragen' : 'Request a developer key';
  const lead = de
    ? html`Ein kostenloser Entwicklerschlüssel erlaubt ${facts.developerLimit} Anfragen pro Minute, lesend und schreibend. Wir prüfen jede Anfrage innerhalb von ${facts.reviewHours} Stunden und senden den Schlüssel per E-Mail. In der <a href="/docs">API-Referenz</a> (englisch) sehen Sie, was Sie bauen können.`
    : html`A free developer key allows ${facts.developerLimit} requests per minute, read and write. We review every request within ${facts.reviewHours} hours and send the key by email. Read the <a href="/docs">API reference</a> to see what you can build.`;
  const body = html`<h1>${title}</h1>
<p class="lead">${lead}</p>
${summary}
<form method="post" action="/developers?lang=${language}" novalidate>
${textField(language, 'name', values, errors, html` type="text" autocomplete="name" required`)}
${textField(language, 'email', values, errors, html` type="email" autocomplete="email" spellcheck="false" required`)}
${textField(language, 'organisation', values, errors, html` type="text" autocomplete="organization"`)}
${accountTypeField(language, values, errors)}
${textField(language, 'intended_use', values, errors, html` required`)}
<button type="submit">${de ? 'Schlüssel anfragen' : 'Request key'}</button>
</form>`;
  return layout(language, summary ? `${de ? 'Fehler' : 'Error'}: ${title}` : title, body);
}

export function confirmationPage(
  request: { id: string; email: string },
  facts: PageFacts,
  language: FormLanguage = 'en',
): string {
  const body =
    language === 'de'
      ? html`<h1>Anfrage erhalten</h1>
<div class="panel" role="status"><p>Die Kennung Ihrer Anfrage</p><p><code id="request-id">${request.id}</code></p></div>
<p>Wir prüfen jede Anfrage innerhalb von <strong>${facts.reviewHours} Stunden</strong> und senden den Schlüssel an <strong>${request.email}</strong>. Bewahren Sie die Kennung auf, falls Sie nach Ihrer Anfrage fragen möchten.</p>
<p>Bis dahin können Sie die API ohne Schlüssel nutzen (${facts.anonymousLimit} Anfragen pro Minute, nur lesend): Beginnen Sie mit der <a href="/docs">API-Referenz</a>.</p>`
      : html`<h1>Request received</h1>
<div class="panel" role="status"><p>Your request id</p><p><code id="request-id">${request.id}</code></p></div>
<p>We review every request within <strong>${facts.reviewHours} hours</strong> and send the key to <strong>${request.email}</strong>. Keep the id in case you want to ask about your request.</p>
<p>Until then you can use the API without a key (${facts.anonymousLimit} requests per minute, read only): start with the <a href="/docs">API reference</a>.</p>`;
  return layout(language, language === 'de' ? 'Anfrage erhalten' : 'Request received', body);
}
