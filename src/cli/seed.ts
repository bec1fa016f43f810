import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { redactDatabaseUrl } from '../db/create-db.js';
import { openDatabase } from '../db/prepare.js';
import { berlinWallClock, isCalendarDate } from '../domain/berlin-time.js';
import { hasMarketplaceData } from '../repositories/dataset.js';
import { REGIONS } from '../seed/regions.js';
import { anchorFor, DEFAULT_SEED_OPTIONS, seedDatabase } from '../seed/seed-database.js';
import { progressBar } from './progress.js';

const USAGE = `Usage: npm run seed -- [--jobs N] [--listings M] [--helpers K] [--completed C] [--seed S] [--anchor YYYY-MM-DD] [--region karlsruhe|bw] [--replace]

Builds a deterministic dataset in DATABASE_URL (default sqlite:./data/marketplace.db):
  --jobs N        open jobs (default ${DEFAULT_SEED_OPTIONS.jobs}; about 8 % assigned and expired ones come on top)
  --listings M    listings (default ${DEFAULT_SEED_OPTIONS.listings})
  --helpers K     helper profiles (default ${DEFAULT_SEED_OPTIONS.helpers})
  --completed C   completed jobs that estimates learn from (default ${DEFAULT_SEED_OPTIONS.completedJobs})
  --seed S        random seed (default ${DEFAULT_SEED_OPTIONS.seed}); same seed and anchor, same data
  --anchor DATE   the day the data is built around (default today in Europe/Berlin)
  --region R      karlsruhe (default): around the service area; bw: spread over Baden-Wuerttemberg
                  (the benchmark's large dataset: --region bw --jobs 1000000 --listings 300000)
  --replace       delete the marketplace data already in the database first`;

function count(name: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > max)
    throw new Error(`--${name} must be a whole number from 0 to ${max}; got '${value}'.`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      jobs: { type: 'string' },
      listings: { type: 'string' },
      helpers: { type: 'string' },
      completed: { type: 'string' },
      seed: { type: 'string' },
      anchor: { type: 'string' },
      region: { type: 'string', default: 'karlsruhe' },
      replace: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (values.anchor !== undefined && !isCalendarDate(values.anchor))
    throw new Error(`--anchor must be a date as YYYY-MM-DD; got '${values.anchor}'.`);
  const region = REGIONS.find((r) => r === values.region);
  if (!region) throw new Error(`--region must be one of ${REGIONS.join(', ')}; got '${values.region}'.`);
  const options = {
    seed: count('seed', values.seed, DEFAULT_SEED_OPTIONS.seed, 2 ** 31 - 1),
    jobs: count('jobs', values.jobs, DEFAULT_SEED_OPTIONS.jobs, 5_000_000),
    listings: count('listings', values.listings, DEFAULT_SEED_OPTIONS.listings, 2_000_000),
    helpers: count('helpers', values.helpers, DEFAULT_SEED_OPTIONS.helpers, 200_000),
    completedJobs: count('completed', values.completed, DEFAULT_SEED_OPTIONS.completedJobs, 2_000_000),
    anchor: values.anchor ? berlinWallClock(values.anchor, 0) : anchorFor(new Date()),
    region,
  };

  const config = loadConfig();
  const db = await openDatabase(config.DATABASE_URL);
  try {
    if ((await hasMarketplaceData(db.kysely)) && !values.replace) {
      throw new Error('The database already holds marketplace data. Add --replace to delete it and seed anew.');
    }
    const started = Date.now();
    await seedDatabase(db.kysely, options, progressBar(), { replace: values.replace });
    process.stdout.write(
      `Seeded ${redactDatabaseUrl(config.DATABASE_URL)}: ${options.jobs} open jobs, ${options.completedJobs} completed jobs, ${options.listings} listings, ${options.helpers} helpers, region ${options.region} (seed ${options.seed}, anchor ${options.anchor.toISOString()}) in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`,
    );
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`);
  process.exit(1);
});
