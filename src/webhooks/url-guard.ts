import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Where webhooks may not go unless the operator allows private networks: loopback, private,
 * link-local (cloud metadata at 169.254.169.254), carrier-grade NAT, unspecified, documentation,
 * benchmarking, multicast and reserved ranges, in IPv4 and IPv6 (IPv4-mapped and NAT64 addresses
 * are checked as the IPv4 address they carry).
 */
const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::a.b.c.d) IPv6 address. */
function embeddedIpv4(address: string): string | null {
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted?.[1]) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex?.[1] || !hex[2]) return null;
  const high = Number.parseInt(hex[1], 16);
  const low = Number.parseInt(hex[2], 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** Whether an IP address is outside the public internet (see BLOCKED). */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family !== 6) return true;
  const v4 = embeddedIpv4(address.toLowerCase());
  if (v4) return BLOCKED.check(v4, 'ipv4');
  return BLOCKED.check(address, 'ipv6');
}

/** The first address of a lookup that is private or reserved, if any. */
function firstInternal(addresses: readonly LookupAddress[]): LookupAddress | undefined {
  return addresses.find((entry) => isPrivateAddress(entry.address));
}

export type UrlProblem = { problem: string; suggestion: string };

const PRIVATE_SUGGESTION =
  'Use a URL on the public internet. Operators who run receivers inside their own network can allow it with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true.';

/** The host of a URL without IPv6 brackets. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
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
      // A resolver that does not answer must not hold the request: 3 s, then "does not resolve".
      const timer = setTimeout(() => reject(new Error('DNS timeout')), 3_000);
      dnsLookup(host, { all: true }, (error, found) => {
        clearTimeout(timer);
        if (error) reject(error);
        else resolve(found);
      });
    });
  } catch {
    return {
      problem: `url's host ${host} does not resolve.`,
      suggestion: 'Check the host name; it must resolve to a public address.',
    };
  }
  const internal = firstInternal(addresses);
  return internal
    ? {
        problem: `url's host ${host} resolves to ${internal.address}, a private or reserved address.`,
        suggestion: PRIVATE_SUGGESTION,
      }
    : null;
}

/** The error of a connection the guard refused. */
export class BlockedAddressError extends Error {
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, a private or reserved address; not delivered`);
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
    if (error) return callback(error, []);
    const internal = firstInternal(addresses);
    if (internal) return callback(new BlockedAddressError(hostname, internal.address), []);
    const all = (options as { all?: boolean }).all;
    if (all) return callback(null, addresses);
    const first = addresses[0];
    if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
    callback(null, first.address, first.family);
  });
}
