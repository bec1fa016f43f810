import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/*
 * Which addresses webhooks may go to unless the operator allows private networks: only what
 * ipaddr.js (a maintained library that follows the IANA special-purpose registries) classifies as
 * 'unicast', i.e. none of loopback, private, link-local (cloud metadata at 169.254.169.254),
 * carrier-grade NAT, unspecified, documentation, benchmarking, multicast or reserved. A hand-kept
 * list missed the IPv6 forms that carry an IPv4 address; those are now checked as that address too.
 */

/** The first 3 bits of IPv6 global unicast (2000::/3): everything else is unassigned or special. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
/** The well-known NAT64 prefix (RFC 6052): the last 32 bits are the IPv4 address. */
const WELL_KNOWN_NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

/** The IPv4 address in four bytes of an IPv6 address, optionally inverted (Teredo obfuscates). */
function v4At(bytes: readonly number[], start: number, invert = false): ipaddr.IPv4 {
  return new ipaddr.IPv4(bytes.slice(start, start + 4).map((byte) => (invert ? byte ^ 0xff : byte)));
}

/**
 * The IPv4 addresses an IPv6 address carries (and that a packet to it would reach), [] when it
 * carries none, or null when it is a translation form whose IPv4 address cannot be known.
 */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4[] | null {
  const bytes = address.toByteArray();
  switch (address.range()) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // SIIT ::ffff:0:a.b.c.d
      return [v4At(bytes, 12)];
    case 'rfc6052':
      // The well-known prefix ends in the IPv4 address; the local-use prefix 64:ff9b:1::/48
      // (RFC 8215) is a translator inside someone's network, with the IPv4 address placed where
      // its operator chose: refused whatever it carries.
      return address.match(WELL_KNOWN_NAT64) ? [v4At(bytes, 12)] : null;
    case '6to4': // 2002:AABB:CCDD::/48
      return [v4At(bytes, 2)];
    case 'teredo': // 2001:0:server:flags:port:client (client inverted)
      return [v4At(bytes, 4), v4At(bytes, 12, true)];
    default:
      return [];
  }
}

/**
 * An IPv6 address read the way the URL it came in (or http.request) reads it: ipaddr.js alone would
 * take the deprecated "::a.b.c.d" for "::ffff:a.b.c.d". Zone ids (link-local only) are not public.
 */
function parseV6(address: string): ipaddr.IPv6 | null {
  try {
    return ipaddr.IPv6.parse(new URL(`http://[${address}]/`).hostname.slice(1, -1));
  } catch {
    return null;
  }
}

/** Whether an IP address is on the public internet (see above); anything unparsable is not. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return ipaddr.IPv4.parse(address).range() === 'unicast';
  if (family !== 6) return false;
  const v6 = parseV6(address);
  if (!v6) return false;
  const carried = embeddedIpv4(v6);
  if (carried === null) return false;
  if (carried.length > 0) return carried.every((v4) => v4.range() === 'unicast');
  // ipaddr.js calls every unlisted address 'unicast', also the deprecated IPv4-compatible ::a.b.c.d
  // and the rest of ::/8: only global unicast space reaches the internet.
  return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST_V6);
}

/** Whether an IP address is outside the public internet. */
export function isPrivateAddress(address: string): boolean {
  return !isPublicAddress(address);
}

/** Whether every address of a lookup is public (and there is one). */
function allPublic(addresses: readonly LookupAddress[]): boolean {
  return addresses.length > 0 && addresses.every((entry) => isPublicAddress(entry.address));
}

export type UrlProblem = { problem: string; suggestion: string };

const PRIVATE_SUGGESTION =
  'Use a URL on the public internet. Operators who run receivers inside their own network can allow it with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true.';

/** The host of a URL without IPv6 brackets or the root's trailing dot ("localhost." is localhost). */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
}

/**
 * One answer for a name that does not resolve and one that resolves to an internal address: the
 * server's resolver may know names of its own network, and which of them exist or where they
 * point is not the caller's to learn.
 */
function nameNotAllowed(host: string): UrlProblem {
  return {
    problem: `url's host ${host} does not resolve to a public address; webhooks are only delivered to the public internet.`,
    suggestion: `Check the host name; it must resolve to public addresses only. ${PRIVATE_SUGGESTION}`,
  };
}

/**
 * Why a webhook URL is refused, or null. Only http(s), no credentials in the URL, and (unless
 * private networks are allowed) a host whose every address is public: literal addresses are checked
 * as they are, names are resolved. Delivery checks again at connect time (guardedLookup), so a name
 * that resolves differently later (DNS rebinding) is refused then.
 */
export async function webhookUrlProblem(text: string, allowPrivate: boolean): Promise<UrlProblem | null> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return {
      problem: 'url is not an absolute URL.',
      suggestion: 'Send an absolute URL such as https://example.org/hooks/marketplace.',
    };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return {
      problem: `url uses ${url.protocol.replace(':', '')}; only http and https are delivered to.`,
      suggestion: 'Send an https:// URL.',
    };
  }
  if (url.username || url.password) {
    return {
      problem: 'url carries credentials (user:password@); they would be stored and sent in clear.',
      suggestion: 'Remove them and verify deliveries by their Marketplace-Signature header instead.',
    };
  }
  if (allowPrivate) return null;
  const host = hostOf(url);
  if (isIP(host)) {
    return isPrivateAddress(host)
      ? { problem: `url points at ${host}, a private or reserved address.`, suggestion: PRIVATE_SUGGESTION }
      : null;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) {
    return { problem: `url points at ${host}, the server itself.`, suggestion: PRIVATE_SUGGESTION };
  }
  let addresses: LookupAddress[];
  try {
    addresses = await new Promise((resolve, reject) => {
      // A resolver that does not answer must not hold the request: 3 s, then "not allowed".
      const timer = setTimeout(() => reject(new Error('DNS timeout')), 3_000);
      dnsLookup(host, { all: true }, (error, found) => {
        clearTimeout(timer);
        if (error) reject(error);
        else resolve(found);
      });
    });
  } catch {
    return nameNotAllowed(host);
  }
  return allPublic(addresses) ? null : nameNotAllowed(host);
}

/** The error of a connection the guard refused; it names the host asked for, never what it resolved to. */
export class BlockedAddressError extends Error {
  constructor(host: string) {
    super(`${host} is not a public address or does not resolve to one; not delivered`);
    this.name = 'BlockedAddressError';
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A dns.lookup for http.request that refuses private addresses: the address checked is the one
 * connected to, so a name cannot pass the check with one answer and connect with another.
 */
export function guardedLookup(hostname: string, options: object, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    // One answer for "does not resolve" and "resolves inside": a delivery's last_error must not
    // tell whether an internal name exists (a receiver's name switched to one after creation).
    if (error || !allPublic(addresses)) return callback(new BlockedAddressError(hostname), []);
    const all = (options as { all?: boolean }).all;
    if (all) return callback(null, addresses);
    const first = addresses[0];
    if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
    callback(null, first.address, first.family);
  });
}
