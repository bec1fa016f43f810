/**
 * The dependency rules of src/ (docs/development.md, "Layers"): layers point down only, no folder
 * imports a folder that imports it back, and only repositories/ and db/ may import Kysely's query
 * builders. `npm run deps` checks them (CI runs it with lint).
 *
 *   domain  <-  schemas, db  <-  repositories  <-  search, events, seed  <-  services  <-  http  <-  mcp  <-  app.ts, server.ts, cli/
 *
 * (mail/, i18n/ and rate-limit/ are leaves beside domain/; sweeps/ and sandbox/ sit below http/; adapters/
 * implement the services' ports and are chosen by app.ts.)
 */
const LAYERS = {
  domain: [],
  'rate-limit': ['domain'],
  // German and English texts (issue 36): what mail/, services/ and http/ say to people.
  i18n: ['domain'],
  mail: ['domain', 'i18n', 'config.ts'],
  schemas: ['domain'],
  db: ['domain'],
  repositories: ['domain', 'schemas', 'db'],
  seed: ['domain', 'schemas', 'db', 'repositories'],
  search: ['domain', 'schemas', 'db', 'repositories'],
  events: ['domain', 'schemas', 'db', 'repositories'],
  webhooks: ['domain', 'schemas', 'db', 'repositories', 'events'],
  services: ['domain', 'schemas', 'db', 'repositories', 'search', 'events', 'webhooks', 'mail', 'i18n'],
  sweeps: ['domain', 'schemas', 'db', 'repositories', 'events', 'services'],
  // Implementations of the services' ports (the Stripe SDK behind the payment provider port).
  adapters: ['domain', 'services'],
  sandbox: ['domain', 'schemas', 'db', 'repositories', 'seed', 'search'],
  // Routes and plugins reach the data only through services (reads too: services/search.ts,
  // figures.ts, places.ts ...); the types they name come from schemas/, domain/ or services/.
  http: [
    'domain',
    'schemas',
    'services',
    'events',
    'webhooks',
    'mail',
    'i18n',
    'rate-limit',
    'sandbox',
    'sweeps',
    'config.ts',
  ],
  mcp: ['domain', 'schemas', 'db', 'repositories', 'search', 'events', 'services', 'http', 'config.ts'],
};

const pathsOf = (layers) => layers.map((l) => (l.endsWith('.ts') ? `^src/${l}$` : `^src/${l}/`));

/** For each layer: a rule that forbids importing any src folder not below it. */
const layerRules = Object.entries(LAYERS).map(([layer, below]) => ({
  name: `${layer}-imports-down-only`,
  comment: `src/${layer} may import only ${below.length ? below.map((l) => `src/${l}`).join(', ') : 'nothing else in src'} (and packages).`,
  severity: 'error',
  from: { path: `^src/${layer}/` },
  to: { path: '^src/', pathNot: [`^src/${layer}/`, ...pathsOf(below)] },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-circular',
      comment: 'Modules may not import each other in a circle.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'http-plugins-not-routes',
      comment:
        'A plugin reads what a route needs from its options; it never imports src/http/routes (the routes sit above the plugins).',
      severity: 'error',
      from: { path: '^src/http/plugins/' },
      to: { path: '^src/http/routes/' },
    },
    {
      name: 'queries-only-in-repositories',
      comment:
        'Only src/repositories and src/db (with its migrations) build queries, so only they import Kysely values.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/repositories/', '^src/db/'] },
      to: { path: 'node_modules/kysely/', dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
