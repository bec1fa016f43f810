import type { MailMessage } from './mailer.js';

export interface DigestEmailInput {
  to: string;
  searches: {
    name: string;
    resource: 'jobs' | 'listings';
    subjects: { id: string; title: string }[];
    /** GET (and POST, RFC 8058 one-click) turns this search's digest off without a key. */
    unsubscribeUrl: string;
  }[];
  baseUrl: string;
}

/** The daily digest of new matches of an account's saved searches, with an unsubscribe link per search. */
export function savedSearchDigestEmail({ to, searches, baseUrl }: DigestEmailInput): MailMessage {
  const sections = searches.map((search) => {
    const lines = search.subjects.map((s) => `  - ${s.title}\n    ${baseUrl}/v1/${search.resource}/${s.id}`);
    return `${search.name}:\n${lines.join('\n')}\n\n  Abbestellen / Unsubscribe: ${search.unsubscribeUrl}`;
  });
  const text = `Neue Treffer Ihrer gespeicherten Suchen / New matches of your saved searches

${sections.join('\n\n')}

Sie erhalten diese E-Mail höchstens einmal am Tag, weil Sie für diese Suchen email_digest eingeschaltet haben.
You get this e-mail at most once a day because you turned email_digest on for these searches.
`;
  const first = searches[0]?.unsubscribeUrl;
  return {
    to,
    subject: 'Neue Treffer / New matches - Karlsruhe Marketplace API',
    text,
    // One header can name one search: the first; each search's own link is in the text.
    ...(searches.length === 1 && first
      ? { headers: { 'List-Unsubscribe': `<${first}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } }
      : {}),
  };
}
