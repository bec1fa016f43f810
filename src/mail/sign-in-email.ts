import type { MailMessage } from './mailer.js';

export type PageLanguage = 'de' | 'en';

/**
 * What an e-mail to an address that asked to sign up or sign in says: the code, or why there is
 * none. The page answers every address alike; only the mailbox learns which case it was.
 */
export type SignInEmailCase =
  | { kind: 'code'; code: string; minutes: number }
  | { kind: 'no-account' }
  | { kind: 'suspended' };

export interface SignInEmailInput {
  to: string;
  language: PageLanguage;
  baseUrl: string;
  what: SignInEmailCase;
}

const IGNORE = {
  de: 'Wenn Sie das nicht waren, ignorieren Sie diese E-Mail; es geschieht nichts.',
  en: 'If this was not you, ignore this e-mail; nothing happens.',
};

function body(language: PageLanguage, what: SignInEmailCase, baseUrl: string): { subject: string; text: string } {
  const de = language === 'de';
  switch (what.kind) {
    case 'code':
      return {
        subject: de ? `Ihr Anmeldecode: ${what.code}` : `Your sign-in code: ${what.code}`,
        text: de
          ? `Guten Tag,\n\nIhr Code zum Anmelden beim Karlsruhe Marketplace:\n\n    ${what.code}\n\nEr gilt ${what.minutes} Minuten und nur einmal. Geben Sie ihn auf der Seite ein, auf der Sie ihn angefordert haben. Gehört diese Adresse schon zu einem Konto, meldet er Sie dort an.\n\n${IGNORE.de}\n`
          : `Hello,\n\nyour code to sign in to Karlsruhe Marketplace:\n\n    ${what.code}\n\nIt works for ${what.minutes} minutes, once. Enter it on the page where you asked for it. If this address has an account already, the code signs you in to it.\n\n${IGNORE.en}\n`,
      };
    case 'no-account':
      return {
        subject: de ? 'Anmeldung beim Karlsruhe Marketplace' : 'Signing in to Karlsruhe Marketplace',
        text: de
          ? `Guten Tag,\n\njemand wollte sich mit dieser Adresse anmelden, aber zu ihr gibt es kein Konto. Ein Konto anlegen: ${baseUrl}/signup\n\n${IGNORE.de}\n`
          : `Hello,\n\nsomeone asked to sign in with this address, but no account uses it. To create one: ${baseUrl}/signup\n\n${IGNORE.en}\n`,
      };
    case 'suspended':
      return {
        subject: de ? 'Anmeldung beim Karlsruhe Marketplace' : 'Signing in to Karlsruhe Marketplace',
        text: de
          ? 'Guten Tag,\n\njemand wollte sich mit dieser Adresse anmelden. Das Konto ist gesperrt, deshalb ist keine Anmeldung möglich; die Begründung der Sperre haben Sie per E-Mail erhalten.\n'
          : 'Hello,\n\nsomeone asked to sign in with this address. The account is suspended, so it cannot sign in; the statement of reasons was sent to you by e-mail.\n',
      };
  }
}

/** The e-mail a sign-up or sign-in sends, in the language of the page it was asked for on. */
export function signInEmail({ to, language, baseUrl, what }: SignInEmailInput): MailMessage {
  const { subject, text } = body(language, what, baseUrl);
  return { to, subject: `${subject} - Karlsruhe Marketplace`, text };
}
