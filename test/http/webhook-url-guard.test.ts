/**
 * The webhook URL guard: IPv6 forms that carry an IPv4 address (IPv4-mapped, IPv4-compatible,
 * SIIT, NAT64, 6to4, Teredo) are judged by that address, classification comes from ipaddr.js, and
 * a refused host name is answered without saying what it resolves to (at registration and at
 * delivery).
 */
import assert from 'node:assert/strict';
import { lookup } from 'node:dns/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { test } from 'node:test';
import { sendDelivery } from '../../src/webhooks/delivery.js';
import { isPublicAddress } from '../../src/webhooks/url-guard.js';
import { buildTestApp, createKey } from '../helpers/app.js';
import { TEST_ENGINE } from '../helpers/database.js';

const PRIVATE_SUGGESTION =
  'Use a URL on the public internet. Operators who run receivers inside their own network can allow it with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true.';

/** Literal addresses that lead inside: each with what it carries. */
const INTERNAL_LITERALS = [
  '[::127.0.0.1]', // IPv4-compatible loopback
  '[::7f00:1]', // the same, in hex
  '[::ffff:0:7f00:1]', // SIIT of 127.0.0.1
  '[64:ff9b:1::7f00:1]', // local-use NAT64 prefix (RFC 8215)
  '[2002:7f00:1::]', // 6to4 of 127.0.0.1
  '[64:ff9b::7f00:1]', // well-known NAT64 of 127.0.0.1
  '[64:ff9b::a9fe:a9fe]', // NAT64 of the cloud metadata address
  '[::ffff:a9fe:a9fe]', // IPv4-mapped metadata address
  '[2002:a00:1::1]', // 6to4 of 10.0.0.1
  '[2001:0:4136:e378:8000:63bf:80ff:fffe]', // Teredo, client 127.0.0.1 (stored inverted)
  '[2001:0:a00:1:8000:63bf:a2b8:28f1]', // Teredo, server 10.0.0.1
  '[::8.8.8.8]', // IPv4-compatible: deprecated, routed nowhere public
  '[::1:0:0:1]', // rest of ::/8
  '[::]',
  '[100::1]', // discard
  '[2001:db8::1]', // documentation
  '[fec0::1]', // site-local
  '[ff02::1]', // multicast
  '240.0.0.1', // reserved
  '255.255.255.255',
  '198.18.0.1', // benchmarking
  '0.1.2.3',
  'localhost.',
];

test('isPublicAddress: ipaddr.js ranges, IPv4 carried in IPv6 judged as IPv4', () => {
  for (const literal of INTERNAL_LITERALS.filter((entry) => entry !== 'localhost.')) {
    assert.equal(isPublicAddress(literal.replace(/^\[|\]$/g, '')), false, literal);
  }
  for (const address of [
    '93.184.215.14',
    '2a00:1450:4001:80b::200e',
    '::ffff:93.184.215.14',
    '64:ff9b::5db8:d70e', // NAT64 of 93.184.215.14
    '2002:5db8:d70e::1', // 6to4 of 93.184.215.14
    '2001:0:4136:e378:8000:63bf:a247:28f1', // Teredo, server 65.54.227.120, client 93.184.215.14
  ]) {
    assert.equal(isPublicAddress(address), true, address);
  }
  assert.equal(isPublicAddress('not-an-address'), false);
});

test(`POST /v1/webhooks refuses IPv6 forms carrying internal IPv4 addresses (${TEST_ENGINE})`, async (t) => {
  const { app, db } = await buildTestApp(t, undefined, { WEBHOOK_DELIVERY: 'false' });
  const { key } = await createKey(db, { email: 'guard@example.org' });
  for (const host of INTERNAL_LITERALS) {
    const answer = await app.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers: { 'x-api-key': key },
      payload: { url: `http://${host}/hooks`, events: ['job.created'] },
    });
    assert.equal(answer.statusCode, 400, host);
    // The message names the address as the URL parser normalised it ([::127.0.0.1] is ::7f00:1).
    const normalised = new URL(`http://${host}/`).hostname.replace(/^\[|\]$/g, '');
    const message =
      host === 'localhost.'
        ? 'url points at localhost, the server itself.'
        : `url points at ${normalised}, a private or reserved address.`;
    assert.deepEqual(
      answer.json(),
      {
        error: 'webhook_url_not_allowed',
        message,
        param: 'url',
        suggestion: PRIVATE_SUGGESTION,
        alternatives: [],
        alternatives_count: 0,
      },
      host,
    );
  }
});

test(`a host name resolving inside is refused without saying where it points (${TEST_ENGINE})`, async (t) => {
  const { app, db } = await buildTestApp(t, undefined, { WEBHOOK_DELIVERY: 'false' });
  const { key } = await createKey(db, { email: 'names@example.org' });
  // The machine's own name resolves to an address of the machine (127.0.x.1 or a private one),
  // like an internal name the server's resolver knows; a name that does not resolve gets the same answer.
  const internalName = hostname().toLowerCase();
  const resolved = (await lookup(internalName, { all: true }).catch(() => [])).map((entry) => entry.address);
  for (const name of [internalName, 'no-such-host.invalid']) {
    const answer = await app.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers: { 'x-api-key': key },
      payload: { url: `https://${name}/hooks`, events: ['job.created'] },
    });
    assert.equal(answer.statusCode, 400, name);
    assert.deepEqual(
      answer.json(),
      {
        error: 'webhook_url_not_allowed',
        message: `url's host ${name} does not resolve to a public address; webhooks are only delivered to the public internet.`,
        param: 'url',
        suggestion: `Check the host name; it must resolve to public addresses only. ${PRIVATE_SUGGESTION}`,
        alternatives: [],
        alternatives_count: 0,
      },
      name,
    );
    for (const address of resolved) assert.ok(!answer.body.includes(address), `${name} revealed ${address}`);
  }

  // At delivery (a name that turned internal after registration) the stored error names no address either.
  const receiver = createServer((_request, response) => response.end('ok'));
  receiver.listen(0);
  t.after(() => receiver.close());
  await new Promise((resolve) => receiver.once('listening', resolve));
  const port = (receiver.address() as AddressInfo).port;
  const result = await sendDelivery(
    `http://${internalName}:${port}/hooks`,
    '{}',
    {},
    {
      timeoutMs: 2_000,
      allowPrivate: false,
    },
  );
  assert.deepEqual(result, {
    status: null,
    error: `${internalName} is not a public address or does not resolve to one; not delivered`,
  });
});
