import type { MailMessage } from './mailer.js';

export interface ReportOutcomeInput {
  to: string;
  reportId: string;
  about: string;
  action: string;
  explanation: string;
  baseUrl: string;
}

const GERMAN: Record<string, string> = {
  remove: 'entfernt',
  restrict_visibility: 'nicht mehr öffentlich sichtbar',
  suspend_account: 'gesperrt (das Konto)',
  no_action: 'nicht beanstandet',
};

/** The outcome of a notice, to the reporter who gave an e-mail address (DSA Art. 16(5)). */
export function reportOutcomeEmail({
  to,
  reportId,
  about,
  action,
  explanation,
  baseUrl,
}: ReportOutcomeInput): MailMessage {
  const text = `(English below)

Guten Tag,

Ihre Meldung ${reportId} zu ${about} ist entschieden: ${GERMAN[action] ?? action}.

Begründung: ${explanation}

Stand der Meldung: ${baseUrl}/v1/reports/${reportId} (mit Ihrem Meldungs-Token als X-Report-Token)

----------------------------------------------------------------------

Hello,

your report ${reportId} about ${about} has been decided: ${action.replaceAll('_', ' ')}.

Reason: ${explanation}

Its state: ${baseUrl}/v1/reports/${reportId} (with your report token as X-Report-Token)
`;
  return { to, subject: `Meldung / Report ${reportId} - Karlsruhe Marketplace API`, text };
}
