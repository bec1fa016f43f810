import type { Machine } from './transitions.js';

/**
 * A job's completion for one accepted helper (issue 30, 3: reputation cannot be bought): the job's
 * owner completing the job is their word; the helper confirms it (final at once) or objects within
 * the window (COMPLETION_OBJECTION_HOURS, fixed at completion); the window's end without an
 * objection makes it final too. Only a final completion opens the reviews of that helper's
 * application and counts in the helper's record.
 *
 * - awaiting_confirmation: the owner's word stands; the helper may confirm or object until the window closes;
 * - confirmed: the helper confirmed it (final);
 * - final: the window closed without an objection;
 * - objected: the helper objected (with a reason); the completion does not stand for them.
 */
export const COMPLETION_STATES = ['awaiting_confirmation', 'confirmed', 'final', 'objected'] as const;
export type CompletionState = (typeof COMPLETION_STATES)[number];

/** What the helper may do from each state (an objected completion is withdrawn by confirming it, while the job stays completed). */
export const COMPLETION_MACHINE: Machine = {
  awaiting_confirmation: { confirm: 'confirmed', object: 'objected' },
  objected: { confirm: 'confirmed' },
  confirmed: {},
  final: {},
};

/** The completion columns of an application (migration 0023). */
export interface CompletionColumns {
  completion_requested_at: string | null;
  completion_objectable_until: string | null;
  completion_confirmed_at: string | null;
  completion_objected_at: string | null;
  completion_objection: string | null;
  completion_final_at: string | null;
}

/** An application no completion has reached (a new one, or the seeded history). */
export const NO_COMPLETION: Readonly<CompletionColumns> = {
  completion_requested_at: null,
  completion_objectable_until: null,
  completion_confirmed_at: null,
  completion_objected_at: null,
  completion_objection: null,
  completion_final_at: null,
};

/** Hours a helper has to object to a completion when COMPLETION_OBJECTION_HOURS is not set. */
export const DEFAULT_COMPLETION_OBJECTION_HOURS = 72;

/** Until when a helper may object to a completion made at `at`. */
export function objectableUntil(at: Date, hours: number): string {
  return new Date(at.getTime() + hours * 3_600_000).toISOString();
}

/**
 * The state at `now`, judged at read time (the window's end needs no write); null: the job's owner
 * has not completed the job for this helper.
 */
export function completionState(c: CompletionColumns, now: Date): CompletionState | null {
  if (c.completion_requested_at === null) return null;
  if (c.completion_confirmed_at !== null) return 'confirmed';
  if (c.completion_objected_at !== null) return 'objected';
  if (c.completion_objectable_until !== null && c.completion_objectable_until <= now.toISOString()) return 'final';
  return 'awaiting_confirmation';
}

/** When the completion became final (the confirmation, or the window's end), or null while it is not. */
export function completionFinalAt(c: CompletionColumns, now: Date): string | null {
  const state = completionState(c, now);
  if (state === 'confirmed') return c.completion_confirmed_at;
  if (state === 'final') return c.completion_objectable_until;
  return null;
}
