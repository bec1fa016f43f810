import { createECDH, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { Agent, createServer } from 'node:https';
import { join } from 'node:path';
// The maintained encryption of web push (RFC 8188), the one the web-push package encrypts with.
import ece from 'http_ece';

/**
 * A push service stand-in (issue 36), as a browser's push service would be: HTTPS on 127.0.0.1
 * with a test-only certificate for 127.0.0.1 (test/fixtures/push-service, made with openssl for
 * these tests; the server's pushes reach it through an agent that trusts that certificate), which
 * takes a push for a subscription it made, checks its VAPID authorization and decrypts it with the
 * subscription's private key, as the browser would. A subscription marked gone answers 410.
 */

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'push-service');
const CERT = readFileSync(join(FIXTURES, 'cert.pem'));
const KEY = readFileSync(join(FIXTURES, 'key.pem'));

export interface ReceivedPush {
  subscription: string;
  headers: Record<string, string | string[] | undefined>;
  /** The decrypted payload, parsed. */
  message: { title: string; body: string; url: string; kind: string };
}

export interface PushServiceStandIn {
  /** A new subscription as the browser gives it (PushSubscription.toJSON()). */
  subscribe(): { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
  /** From now on this subscription answers 410 Gone (the browser unsubscribed). */
  gone(endpoint: string): void;
  received: ReceivedPush[];
  /** An HTTPS agent that trusts the stand-in's certificate. */
  agent: Agent;
  close(): Promise<void>;
}

export async function startPushService(): Promise<PushServiceStandIn> {
  const keys = new Map<string, { ecdh: ReturnType<typeof createECDH>; auth: Buffer }>();
  const goneIds = new Set<string>();
  const received: ReceivedPush[] = [];
  const server = createServer({ cert: CERT, key: KEY }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const id = /^\/push\/([a-f0-9]+)$/.exec(request.url ?? '')?.[1] ?? '';
      const subscription = keys.get(id);
      if (request.method !== 'POST' || !subscription) return void response.writeHead(404).end();
      if (goneIds.has(id)) return void response.writeHead(410).end();
      if (!/^vapid t=[\w.-]+, k=[\w-]+$/.test(String(request.headers.authorization))) {
        return void response.writeHead(401).end();
      }
      try {
        const plain = ece.decrypt(Buffer.concat(chunks), {
          version: 'aes128gcm',
          privateKey: subscription.ecdh,
          authSecret: subscription.auth,
        });
        received.push({ subscription: id, headers: request.headers, message: JSON.parse(plain.toString('utf8')) });
        response.writeHead(201).end();
      } catch {
        response.writeHead(400).end();
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address !== 'object') throw new Error('the push service has no port');
  const agent = new Agent({ ca: CERT, keepAlive: false });
  return {
    subscribe() {
      const id = randomBytes(8).toString('hex');
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      keys.set(id, { ecdh, auth });
      return {
        endpoint: `https://127.0.0.1:${address.port}/push/${id}`,
        expirationTime: null,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
      };
    },
    gone(endpoint) {
      goneIds.add(endpoint.split('/').at(-1) ?? '');
    },
    received,
    agent,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
