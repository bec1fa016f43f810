import type { NewListing, NewOwner } from '../db/schema.js';
import { CATEGORIES } from '../domain/categories.js';
import type { Condition } from '../domain/statuses.js';
import { freshRecordColumns } from '../repositories/mappers.js';
import { ITEM_CATALOG } from './catalog/items.js';
import { drawTraits, type Traits } from './history.js';
import { displayName } from './people.js';
import { DAY_MS, describe, fill, idOf, type Marking, named, photos, placedAt, titled } from './placing.js';
import type { Rng } from './rng.js';

export type OwnerSeed = NewOwner & { traits: Traits };

/** An owner with an empty record: their figures follow from the history the seed gives them (history.ts). */
export function makeOwner(rng: Rng, anchor: Date, marking: Marking): OwnerSeed {
  return {
    id: idOf(rng, marking, 'own'),
    display_name: named(marking, displayName(rng)),
    created_at: new Date(anchor.getTime() - rng.between(30, 900) * DAY_MS).toISOString(),
    ...freshRecordColumns(),
    traits: drawTraits(rng),
  };
}

const CONDITION_WEIGHTS: readonly (readonly [Condition, number])[] = [
  ['new', 10],
  ['like_new', 30],
  ['good', 45],
  ['fair', 15],
];

export function makeListing(rng: Rng, anchor: Date, ownerId: string, marking: Marking): NewListing {
  const category = rng.pick(CATEGORIES);
  const template = rng.pick(ITEM_CATALOG[category]);
  const { place, location } = placedAt(rng, marking);
  const id = idOf(rng, marking, 'lst');
  const day = Math.max(0.5, Math.round(rng.between(...template.dayEur) * 2) / 2);
  const week = template.weekly && rng.chance(0.85) ? Math.round(day * rng.between(4, 5.5)) : null;
  return {
    id,
    owner_id: ownerId,
    title: titled(marking, fill(template.title, place)),
    description: describe(rng, template.sentences, place),
    category,
    status: rng.weighted([
      ['available', 92],
      ['paused', 6],
      ['archived', 2],
    ] as const),
    price_per_day_cents: Math.round(day * 100),
    price_per_week_cents: week === null ? null : week * 100,
    deposit_cents: Math.max(0, Math.round(rng.between(...template.depositEur) / 5) * 500),
    condition: rng.weighted(CONDITION_WEIGHTS),
    ...location,
    instant_booking: rng.chance(0.35) ? 1 : 0,
    photos: photos(rng, id, 0.75),
    created_at: new Date(anchor.getTime() - rng.between(0, 180) * DAY_MS).toISOString(),
  };
}
