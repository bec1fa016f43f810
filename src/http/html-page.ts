/**
 * The headers of the few HTML pages the API serves (/developers, /confirm/{token}), sent once:
 * each page's own CSP, no MIME sniffing, no Referer for other sites, and never a cache (they show
 * a visitor's own entries, or a secret link's draft).
 */
import type { FastifyReply } from 'fastify';

export function sendHtmlPage(
  reply: FastifyReply,
  status: number,
  page: string,
  csp: string,
  extra: Record<string, string> = {},
): FastifyReply {
  return reply
    .code(status)
    .headers({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': csp,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
      'cache-control': 'no-store',
      ...extra,
    })
    .send(page);
}
