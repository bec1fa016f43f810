import type { Category } from '../../domain/categories.js';

/**
 * A kind of job people in and around Karlsruhe post. The generator picks a template, a place and a
 * random draw inside every [min, max] range; `{ort}` in a title or sentence is replaced by the
 * district (in Karlsruhe) or the town name, e.g. "Hecke schneiden in {ort}" -> "Hecke schneiden in Durlach".
 */
export interface JobTemplate {
  /** German title, 20-80 characters, may contain `{ort}`. */
  title: string;
  /** 2-4 German sentences; the generator uses 2-3 of them in random order after the first. May contain `{ort}`. */
  sentences: readonly string[];
  /** Typical working hours for one helper, e.g. [1, 3]. */
  hours: readonly [number, number];
  /** Typical pay per helper and hour in EUR, e.g. [14, 20]. */
  hourlyRateEur: readonly [number, number];
  /** Helpers needed, 1 to 4. */
  helpers: readonly [number, number];
  /** Share of such jobs that need a licence or certificate (driving licence, electrician ...), 0..1. */
  requiresLicense?: number;
  /** Share that can be done remotely (online tech help, ...), 0..1. */
  remote?: number;
}

/** An item people lend out or rent by the day or week, with a deposit. */
export interface ItemTemplate {
  /** German listing title, e.g. "Bohrmaschine Bosch PSB 750 zu verleihen" (20-80 characters). */
  title: string;
  /** 2-4 German sentences describing the item, its accessories and the handover. */
  sentences: readonly string[];
  /** Price per day in EUR. */
  dayEur: readonly [number, number];
  /** Deposit in EUR. */
  depositEur: readonly [number, number];
  /** Whether a weekly price is usually offered (weekly = about 4-5 x the daily price). */
  weekly: boolean;
}

export type JobCatalog = Readonly<Record<Category, readonly JobTemplate[]>>;
export type ItemCatalog = Readonly<Record<Category, readonly ItemTemplate[]>>;
