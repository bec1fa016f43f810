import type { Category } from './categories.js';
import type { Condition } from './statuses.js';

/**
 * What a reported item said when it was reported (DSA Art. 16 and 17: the notice and the statement
 * of reasons must rest on the content as it was, whatever its author edits or removes afterwards),
 * kept as JSON in `reports.snapshot` (migration 0032). Only what the item's public view shows: never
 * an exact place, an e-mail address or another private field; a message (private to its two
 * parties) as written, before the contact-data shield, with its sender's account id: every read of
 * one by an operator is recorded in the audit log by the reader. Erased with the item's account
 * (`reports.about_account_id`), see docs/privacy.md. Reports filed before migration 0032 have none.
 *
 * Each text is cut at REPORT_SNAPSHOT_TEXT_LIMIT characters; `truncated` says whether one was.
 * `version` is 1; a later shape gets a new number, and readers keep reading the old ones.
 */
export type ReportSnapshot = JobSnapshot | ListingSnapshot | HelperSnapshot | ReviewSnapshot | MessageSnapshot;

/** The place as public reads name it: city, postcode and district, never a point or an address. */
interface SnapshotPlace {
  city: string;
  plz: string;
  district: string | null;
}

interface SnapshotBase {
  version: 1;
  /** Whether a text (or the list of photos) was cut to fit the limits. */
  truncated: boolean;
}

export interface JobSnapshot extends SnapshotBase, SnapshotPlace {
  type: 'job';
  title: string;
  description: string;
  category: Category;
  price_cents: number;
  /** The photo URLs the job showed (links only: the images themselves are not copied). */
  photos: string[];
}

export interface ListingSnapshot extends SnapshotBase, SnapshotPlace {
  type: 'listing';
  title: string;
  description: string;
  category: Category;
  condition: Condition;
  price_per_day_cents: number;
  photos: string[];
}

export interface HelperSnapshot extends SnapshotBase, SnapshotPlace {
  type: 'helper';
  display_name: string;
  bio: string;
  /** The categories the profile offers (its skills), in name order. */
  categories: Category[];
  hourly_rate_cents: number;
}

export interface ReviewSnapshot extends SnapshotBase {
  type: 'review';
  rating: number;
  /** null: a review with a rating only. */
  text: string | null;
}

export interface MessageSnapshot extends SnapshotBase {
  type: 'message';
  /** Private to the conversation's two accounts: the sender's account id and the text as written. */
  sender_account_id: string;
  text: string;
  sent_at: string;
}

/** The most characters a text of a snapshot keeps. */
export const REPORT_SNAPSHOT_TEXT_LIMIT = 4000;
/** The most photo links a snapshot keeps (as many as a job or listing may have). */
export const REPORT_SNAPSHOT_PHOTOS_LIMIT = 8;

/** The first `limit` characters of a text, never ending in half a surrogate pair. */
export function cutText(text: string, limit = REPORT_SNAPSHOT_TEXT_LIMIT): string {
  if (text.length <= limit) return text;
  const cut = text.slice(0, limit);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/** What a snapshot is made from: its fields before the texts are cut (each kind's own). */
export type ReportSnapshotInput = ReportSnapshot extends infer S
  ? S extends ReportSnapshot
    ? Omit<S, 'version' | 'truncated'>
    : never
  : never;

/** A snapshot of `item` with every text and the photos cut to the limits, `truncated` set when one was. */
export function reportSnapshot(item: ReportSnapshotInput): ReportSnapshot {
  let truncated = false;
  const out: Record<string, unknown> = { type: item.type, version: 1 };
  for (const [key, value] of Object.entries(item)) {
    if (key === 'type') continue;
    if (typeof value === 'string') {
      const cut = cutText(value);
      truncated ||= cut !== value;
      out[key] = cut;
    } else if (key === 'photos' && Array.isArray(value)) {
      const kept = value.slice(0, REPORT_SNAPSHOT_PHOTOS_LIMIT).map((url: string) => cutText(url));
      truncated ||= kept.length !== value.length || kept.some((url, i) => url !== value[i]);
      out[key] = kept;
    } else {
      out[key] = value;
    }
  }
  out.truncated = truncated;
  return out as unknown as ReportSnapshot;
}

const SNAPSHOT_TYPES: readonly string[] = ['job', 'listing', 'helper', 'review', 'message'];

/** The stored JSON of a snapshot, read back; null for none (a report filed before 0032, or erased). */
export function parseReportSnapshot(json: string | null): ReportSnapshot | null {
  if (json === null) return null;
  const value: unknown = JSON.parse(json);
  if (
    typeof value !== 'object' ||
    value === null ||
    !SNAPSHOT_TYPES.includes((value as { type?: string }).type ?? '')
  ) {
    throw new Error('reports.snapshot holds no report snapshot');
  }
  return value as ReportSnapshot;
}
