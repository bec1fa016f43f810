import type { Config } from '../config.js';
import type { MailMessage } from './mailer.js';

/**
 * The address people reach the API at: PUBLIC_URL, or the listening address when it is unset
 * (a wildcard listen address names no host, so the loopback one stands in).
 */
export function publicBaseUrl(config: Pick<Config, 'PUBLIC_URL' | 'HOST' | 'PORT'>): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL;
  const host = config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST === '::' ? '[::1]' : config.HOST;
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${config.PORT}`;
}

export interface KeyEmailInput {
  to: string;
  name: string;
  requestId: string;
  key: string;
  perMinute: number;
  baseUrl: string;
}

/** The approval: the key (its only copy), its limit, a first request to try, and the docs. */
export function keyEmail({ to, name, requestId, key, perMinute, baseUrl }: KeyEmailInput): MailMessage {
  const curl = `curl -H 'X-API-Key: ${key}' ${baseUrl}/v1/me`;
  const text = `(English below)

Hallo ${name},

Ihre Anfrage ${requestId} für einen Entwickler-Key
der Karlsruhe Marketplace API ist freigegeben. Ihr API-Key:

    ${key}

Bewahren Sie ihn sicher auf und geben Sie ihn nicht weiter:
Wir speichern nur einen Hash und können ihn nicht noch einmal
anzeigen.

Limit: ${perMinute} Anfragen pro Minute, Lesen und Schreiben.
Senden Sie den Key im Header X-API-Key, zum Beispiel:

    ${curl}

Dokumentation: ${baseUrl}/docs

----------------------------------------------------------------------

Hello ${name},

your request ${requestId} for a developer key of the
Karlsruhe Marketplace API is approved. Your API key:

    ${key}

Keep it safe and do not share it: we store only a hash and
cannot show it again.

Limit: ${perMinute} requests per minute, read and write.
Send the key in the X-API-Key header, for example:

    ${curl}

Documentation: ${baseUrl}/docs
`;
  return { to, subject: 'Ihr API-Key / Your API key - Karlsruhe Marketplace API', text };
}

export interface RejectionEmailInput {
  to: string;
  name: string;
  requestId: string;
  reason: string;
  anonymousPerMinute: number;
  baseUrl: string;
}

/** The rejection: the reason, and what the requester can still do. */
export function rejectionEmail({
  to,
  name,
  requestId,
  reason,
  anonymousPerMinute,
  baseUrl,
}: RejectionEmailInput): MailMessage {
  const text = `(English below)

Hallo ${name},

Ihre Anfrage ${requestId} für einen Entwickler-Key
der Karlsruhe Marketplace API wurde abgelehnt.

Begründung: ${reason}

Ohne Key können Sie die API weiter lesend nutzen
(${anonymousPerMinute} Anfragen pro Minute). Eine neue Anfrage stellen Sie
unter ${baseUrl}/developers.

----------------------------------------------------------------------

Hello ${name},

your request ${requestId} for a developer key of the
Karlsruhe Marketplace API was declined.

Reason: ${reason}

Without a key you can still read from the API
(${anonymousPerMinute} requests per minute). You can file a new request at
${baseUrl}/developers.
`;
  return { to, subject: 'Ihre Key-Anfrage / Your key request - Karlsruhe Marketplace API', text };
}
