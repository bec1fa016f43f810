import type { MailMessage } from './mailer.js';

export interface ClaimDecisionEmailInput {
  to: string;
  claimId: string;
  role: 'owner' | 'renter';
  claimedEur: number;
  decidedEur: number;
  /** Written by the operator, so it may be quoted. */
  explanation: string;
  baseUrl: string;
}

const eur = (amount: number) => amount.toFixed(2);

/** An operator's decision on a disputed damage claim, to each of its two sides. */
export function claimDecisionEmail(input: ClaimDecisionEmailInput): MailMessage {
  const { to, claimId, role, claimedEur, decidedEur, explanation, baseUrl } = input;
  const next =
    role === 'owner'
      ? {
          de: `Bitte geben Sie die Kaution zurück, abzüglich ${eur(decidedEur)} EUR, und bestätigen Sie es (POST /v1/payments/{id}/release).`,
          en: `Please give the deposit back, less ${eur(decidedEur)} EUR, and confirm it (POST /v1/payments/{id}/release).`,
        }
      : {
          de: `Die Vermieterin oder der Vermieter gibt Ihnen die Kaution zurück, abzüglich ${eur(decidedEur)} EUR.`,
          en: `The owner gives the deposit back to you, less ${eur(decidedEur)} EUR.`,
        };
  const text = `(English below)

Guten Tag,

über die bestrittene Schadensforderung ${claimId} (${eur(claimedEur)} EUR) wurde entschieden: ${eur(decidedEur)} EUR werden von der Kaution einbehalten.

Begründung: ${explanation}

${next.de}

Forderung: ${baseUrl}/v1/claims/${claimId}

----------------------------------------------------------------------

Hello,

the disputed damage claim ${claimId} (${eur(claimedEur)} EUR) has been decided: ${eur(decidedEur)} EUR are kept from the deposit.

Reasons: ${explanation}

${next.en}

Claim: ${baseUrl}/v1/claims/${claimId}
`;
  return { to, subject: `Schadensforderung / Damage claim ${claimId} - Karlsruhe Marketplace API`, text };
}
