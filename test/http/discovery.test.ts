/**
 * Discovery for agents and tools: /llms.txt (llmstxt.org) and /.well-known/api-catalog (RFC 9727).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildTestApp, NOW } from '../helpers/app.js';

const PUBLIC_URL = 'https://api.example.org';

async function app(t: Parameters<typeof buildTestApp>[0]) {
  return (await buildTestApp(t, NOW, { PUBLIC_URL, RATE_LIMIT_ANONYMOUS_PER_MIN: '1' })).app;
}

describe('GET /llms.txt', () => {
  test('Markdown after the proposal: a title, a summary, sections of links to this API', async (t) => {
    const api = await app(t);
    const response = await api.inject({ url: '/llms.txt' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['content-type'], 'text/markdown; charset=utf-8');
    const lines = response.body.split('\n');
    assert.match(lines[0] ?? '', /^# Karlsruhe Marketplace API$/);
    assert.match(lines[2] ?? '', /^> .*JSON REST API.*Karlsruhe/);
    assert.match(response.body, /X-API-Key: kmp_\.\.\./);
    assert.match(response.body, /anonymous \(read only, 1 requests per minute/, 'the limits in force');
    for (const section of ['## Docs', '## Key endpoints', '## Optional']) assert.ok(lines.includes(section), section);
  });

  test('every link points at PUBLIC_URL and at something this API serves', async (t) => {
    const api = await app(t);
    const body = (await api.inject({ url: '/llms.txt', headers: { host: 'evil.example' } })).body;
    const doc = (await api.inject({ url: '/v1/openapi.json' })).json() as { paths: Record<string, object> };
    const links = [...body.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1] ?? '');
    assert.ok(links.length >= 15, `${links.length} links`);
    for (const link of links) {
      assert.ok(link.startsWith(`${PUBLIC_URL}/`), `${link} is not under PUBLIC_URL (never the Host header)`);
      const [path = '', query] = link.slice(PUBLIC_URL.length).split('?');
      // A link with a query (a part of the OpenAPI document) must answer, not only name a path.
      if (query !== undefined) assert.equal((await api.inject({ url: `${path}?${query}` })).statusCode, 200, link);
      const served =
        doc.paths[path] !== undefined ||
        ['/docs', '/docs/descriptions.md', '/developers', '/v1/openapi.json'].includes(path);
      assert.ok(served, `${path} is not an endpoint of this API`);
    }
  });

  test('outside every budget', async (t) => {
    const api = await app(t);
    for (let i = 0; i < 3; i++) assert.equal((await api.inject({ url: '/llms.txt' })).statusCode, 200);
  });
});

describe('GET /.well-known/api-catalog', () => {
  test('an RFC 9727 linkset naming the OpenAPI document, the workflows, the reference and llms.txt', async (t) => {
    const api = await app(t);
    const response = await api.inject({ url: '/.well-known/api-catalog' });
    assert.equal(response.statusCode, 200);
    assert.match(
      String(response.headers['content-type']),
      /^application\/linkset\+json; profile="https:\/\/www\.rfc-editor\.org\/info\/rfc9727"/,
    );
    const { linkset } = response.json() as { linkset: Record<string, unknown>[] };
    assert.equal(linkset.length, 1);
    const entry = linkset[0] as Record<string, { href: string; type?: string }[] | string>;
    assert.equal(entry.anchor, `${PUBLIC_URL}/v1`);
    assert.deepEqual(entry['service-desc'], [
      { href: `${PUBLIC_URL}/v1/openapi.json`, type: 'application/vnd.oai.openapi+json;version=3.1' },
      { href: `${PUBLIC_URL}/v1/workflows.arazzo.yaml`, type: 'application/vnd.oai.workflows+yaml;version=1.0.1' },
    ]);
    const described = await api.inject({ url: '/v1/openapi.json' });
    assert.equal(described.json().openapi, '3.1.0', 'the service-desc is the OpenAPI document');
    assert.equal((entry['service-meta'] as { href: string }[])[0]?.href, `${PUBLIC_URL}/llms.txt`);
    assert.deepEqual(entry['service-doc'], [
      { href: `${PUBLIC_URL}/docs`, type: 'text/html' },
      { href: `${PUBLIC_URL}/docs/descriptions.md`, type: 'text/markdown' },
    ]);
    const page = await api.inject({ url: '/docs/descriptions.md' });
    assert.equal(page.statusCode, 200, 'the service-doc for the long descriptions is served');
    const head = await api.inject({ method: 'HEAD', url: '/.well-known/api-catalog' });
    assert.equal(head.statusCode, 200);
    assert.equal(head.body, '');
  });

  test('without PUBLIC_URL the links use the listening address from the configuration', async (t) => {
    const { app: api } = await buildTestApp(t, NOW, { HOST: '127.0.0.1', PORT: '4010' });
    const { linkset } = (await api.inject({ url: '/.well-known/api-catalog' })).json() as {
      linkset: { anchor: string }[];
    };
    assert.equal(linkset[0]?.anchor, 'http://127.0.0.1:4010/v1');
  });
});

describe('the OpenAPI document names its server', () => {
  test('servers is PUBLIC_URL when set, so a generated client needs no base URL of its own', async (t) => {
    const api = await app(t);
    const document = (await api.inject({ url: '/v1/openapi.json', headers: { host: 'evil.example' } })).json();
    assert.deepEqual(document.servers, [{ url: PUBLIC_URL, description: 'This API (PUBLIC_URL)' }]);
  });

  test('without PUBLIC_URL: `/`, the server that serves the document (never the Host header)', async (t) => {
    const { app: api } = await buildTestApp(t, NOW, { HOST: '127.0.0.1', PORT: '4010' });
    const document = (await api.inject({ url: '/v1/openapi.json', headers: { host: 'evil.example' } })).json();
    assert.deepEqual(document.servers, [{ url: '/', description: 'The server that serves this document' }]);
  });
});
