import type { MailMessage } from './mailer.js';

export interface VerificationEmailInput {
  to: string;
  helperId: string;
  decision: 'approved' | 'rejected' | 'revoked';
  /** Written by the operator, so it may be quoted. */
  reason: string | null;
  baseUrl: string;
}

const GERMAN = {
  approved: 'ist verifiziert',
  rejected: 'wurde nicht verifiziert',
  revoked: 'ist nicht mehr verifiziert',
};
const ENGLISH = { approved: 'is verified', rejected: 'was not verified', revoked: 'is no longer verified' };

/** The platform's decision on a helper's verification, to the helper's account. */
export function verificationEmail({ to, helperId, decision, reason, baseUrl }: VerificationEmailInput): MailMessage {
  const because = reason ? `\n\nBegründung / Reason: ${reason}` : '';
  const text = `(English below)

Guten Tag,

das Helferprofil ${helperId} ${GERMAN[decision]}.${because}

Profil: ${baseUrl}/v1/helpers/${helperId}

----------------------------------------------------------------------

Hello,

the helper profile ${helperId} ${ENGLISH[decision]}.

Profile: ${baseUrl}/v1/helpers/${helperId}
`;
  return { to, subject: `Verifizierung / Verification ${helperId} - Karlsruhe Marketplace API`, text };
}
