import type { FastifyReply, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import type { Language } from '../domain/notifications.js';

/** English first: a tie (Accept-Language: *, as fetch sends it) is English, the API's own. */
const OFFERED: readonly Language[] = ['en', 'de'];

/**
 * The language of an answer (issue 36): German or English by Accept-Language (de-DE and de;q=0.9
 * are German; a language we do not speak is English, the API's own). Without Accept-Language: the
 * language the calling key's person chose (their notification settings), else English. Codes,
 * field names and the OpenAPI document stay English whatever it says.
 */
export function requestLanguage(
  request: Pick<FastifyRequest, 'headers'> & { access?: { key: { language?: Language | null } | null } },
): Language {
  if (!request.headers['accept-language']) return request.access?.key?.language ?? 'en';
  return (new Negotiator(request).language(OFFERED) as Language | undefined) ?? 'en';
}

/** Marks an answer as one that varies by language: Content-Language and Vary: Accept-Language. */
export function sayLanguage(reply: FastifyReply, language: Language): void {
  reply.header('content-language', language);
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', 'Accept-Language');
  else if (!/(?:^|,)\s*(?:accept-language|\*)\s*(?=,|$)/i.test(String(vary))) {
    reply.header('vary', `${vary}, Accept-Language`);
  }
}
