import type { MailMessage } from './mailer.js';

/*
 * Anyone can file a key request for any address, so these emails carry nothing the requester
 * wrote in the public form (name, organisation, intended use): an attacker could otherwise send a
 * stranger our email with words of their choosing in it. Only our own text, our ids and links, the
 * key, and (for a rejection) the operator's reason.
 */

export interface KeyEmailInput {
  to: string;
  requestId: string;
  key: string;
  perMinute: number;
  baseUrl: string;
}

/** The approval: the key (its only copy), its limit, a first request to try, and the docs. */
export function keyEmail({ to, requestId, key, perMinute, baseUrl }: KeyEmailInput): MailMessage {
  const curl = `curl -H 'X-API-Key: ${key}' ${baseUrl}/v1/me`;
  const text = `(English below)

Guten Tag,

die Anfrage ${requestId} für einen Entwickler-Key
der Karlsruhe Marketplace API ist freigegeben. Ihr API-Key:

    ${key}

Bewahren Sie ihn sicher auf und geben Sie ihn nicht weiter:
Wir speichern nur einen Hash und können ihn nicht noch einmal
anzeigen.

Limit: ${perMinute} Anfragen pro Minute, Lesen und Schreiben.
Senden Sie den Key im Header X-API-Key, zum Beispiel:

    ${curl}

Dokumentation: ${baseUrl}/docs

Haben Sie keinen Key angefragt, können Sie diese E-Mail
ignorieren: Ein Key, den niemand benutzt, bewirkt nichts.

----------------------------------------------------------------------

Hello,

the request ${requestId} for a developer key of the
Karlsruhe Marketplace API is approved. Your API key:

    ${key}

Keep it safe and do not share it: we store only a hash and
cannot show it again.

Limit: ${perMinute} requests per minute, read and write.
Send the key in the X-API-Key header, for example:

    ${curl}

Documentation: ${baseUrl}/docs

If you did not ask for a key, you can ignore this email:
a key that nobody uses does nothing.
`;
  return { to, subject: 'Ihr API-Key / Your API key - Karlsruhe Marketplace API', text };
}

export interface RejectionEmailInput {
  to: string;
  requestId: string;
  /** Written by the operator, so it may be quoted. */
  reason: string;
  anonymousPerMinute: number;
  baseUrl: string;
}

/** The rejection: neutral (the address may not be the requester's), the operator's reason, and what is still possible. */
export function rejectionEmail({
  to,
  requestId,
  reason,
  anonymousPerMinute,
  baseUrl,
}: RejectionEmailInput): MailMessage {
  const text = `(English below)

Guten Tag,

für diese E-Mail-Adresse wurde ein Entwickler-Key der
Karlsruhe Marketplace API angefragt (Anfrage ${requestId}).
Die Anfrage wurde nicht freigegeben.

Begründung: ${reason}

Ohne Key kann die API weiter lesend genutzt werden
(${anonymousPerMinute} Anfragen pro Minute). Neue Anfragen nehmen wir
unter ${baseUrl}/developers entgegen.

Haben Sie keinen Key angefragt, können Sie diese E-Mail
ignorieren.

----------------------------------------------------------------------

Hello,

a request for a developer key of the Karlsruhe Marketplace API
was filed for this email address (request ${requestId}).
It was not approved.

Reason: ${reason}

Without a key the API can still be read
(${anonymousPerMinute} requests per minute). New requests can be filed at
${baseUrl}/developers.

If you did not ask for a key, you can ignore this email.
`;
  return { to, subject: 'Ihre Key-Anfrage / Your key request - Karlsruhe Marketplace API', text };
}
