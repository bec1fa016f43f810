// The OpenAPI document exactly as the app serves it (GET /v1/openapi.json), built in-process from the
// TypeScript sources; building it needs no data, so the database is an empty in-memory SQLite.
// Shared by the document's checks: scripts/openapi-lint.mjs (Redocly, Spectral) and
// scripts/check-requests.mjs.

// The app is TypeScript: without `--import tsx` on the command line, load tsx's hooks here.
if (![...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) => arg.includes('tsx'))) {
  const { register } = await import('tsx/esm/api');
  register();
}

export async function servedDocument(query = '') {
  const { buildApp } = await import('../src/app.ts');
  const { testConfig } = await import('../src/config.ts');
  const { createDb } = await import('../src/db/create-db.ts');
  const db = createDb('sqlite::memory:');
  const app = await buildApp(testConfig(), { db });
  try {
    const response = await app.inject({ method: 'GET', url: `/v1/openapi.json${query}` });
    if (response.statusCode !== 200) {
      throw new Error(`GET /v1/openapi.json${query} answered ${response.statusCode}: ${response.body.slice(0, 500)}`);
    }
    return response.json();
  } finally {
    await app.close();
    await db.close();
  }
}
