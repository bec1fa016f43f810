import type { Language, NotificationKind } from '../domain/notifications.js';
import { translate } from '../i18n/index.js';
import type { MailMessage } from './mailer.js';

/** One thing to tell, already in words: a subject line, a sentence, where to act (said, and its address). */
export interface NotificationLine {
  subject: string;
  body: string;
  action: string;
  url: string;
}

export interface NotificationEmailInput {
  to: string;
  language: Language;
  kind: NotificationKind;
  /** A digest (its lines of any kinds; its link stops the digest), or one notification's e-mail. */
  digest: boolean;
  lines: readonly NotificationLine[];
  unsubscribeUrl: string;
  settingsUrl: string;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/** Text with its addresses as links, for the HTML part. */
const linked = (text: string) =>
  escapeHtml(text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);

/**
 * A notification e-mail in the account's language, as plain text and HTML, with a one-click
 * unsubscribe for its kind (RFC 8058: List-Unsubscribe with an https address and
 * List-Unsubscribe-Post; the address works without signing in and stops that kind only).
 */
export function notificationEmail(input: NotificationEmailInput): MailMessage {
  const { language, lines } = input;
  const t = (key: string, values = {}) => translate(language, key, values);
  const digest = input.digest;
  const kindName = t(digest ? 'notification.digest.name' : `notification.kinds.${input.kind}`);
  const subject = digest ? t('notification.digest.subject', { count: lines.length }) : (lines[0]?.subject ?? kindName);
  const footer = t('notification.footer', {
    settingsUrl: input.settingsUrl,
    kindName,
    unsubscribeUrl: input.unsubscribeUrl,
  });
  const paragraphs = digest
    ? [t('notification.digest.intro'), ...lines.map((line) => `- ${line.body}\n  ${line.action}`)]
    : lines.flatMap((line) => [line.body, line.action]);
  const text = [t('notification.greeting'), '', ...paragraphs.flatMap((p) => [p, '']), '--', footer, ''].join('\n');
  const html = `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body>
<p>${escapeHtml(t('notification.greeting'))}</p>
${
  digest
    ? `<p>${escapeHtml(t('notification.digest.intro'))}</p>\n<ul>${lines
        .map((line) => `<li>${escapeHtml(line.body)}<br>${linked(line.action)}</li>`)
        .join('')}</ul>`
    : lines.map((line) => `<p>${escapeHtml(line.body)}</p>\n<p>${linked(line.action)}</p>`).join('\n')
}
<hr>
<p><small>${linked(footer)}</small></p>
</body></html>
`;
  return {
    to: input.to,
    subject: `${subject} - Karlsruhe Marketplace`,
    text,
    html,
    headers: {
      'List-Unsubscribe': `<${input.unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      'Content-Language': language,
    },
  };
}
