/**
 * The life cycles of the write API as data: for each state, the actions allowed and the state each
 * leads to. An action not listed for the current state is an illegal transition (409).
 */
export type Machine = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** Job: open -> assigned (through accepted applications) -> completed; open/assigned -> cancelled. */
export const JOB_MACHINE: Machine = {
  open: { cancel: 'cancelled' },
  assigned: { complete: 'completed', cancel: 'cancelled' },
  completed: {},
  cancelled: {},
  expired: {},
  /** By a moderation decision (DSA Art. 17): only the owner sees it; a reversed decision restores the status before. */
  removed: {},
};

/** Listing: available <-> paused; either -> archived. */
export const LISTING_MACHINE: Machine = {
  available: { pause: 'paused', archive: 'archived' },
  paused: { resume: 'available', archive: 'archived' },
  archived: {},
  /** By a moderation decision: only the owner sees it; a reversed decision restores the status before. */
  removed: {},
};

/**
 * Booking: requested -> confirmed -> active (picked up) -> returned; requested -> declined;
 * requested/confirmed -> cancelled. requested -> expired is no action: time takes it when the owner
 * does not answer within BOOKING_REQUEST_TTL_HOURS (domain/booking-price.ts).
 */
export const BOOKING_MACHINE: Machine = {
  requested: { confirm: 'confirmed', decline: 'declined', cancel: 'cancelled' },
  confirmed: { 'pick-up': 'active', cancel: 'cancelled' },
  active: { return: 'returned' },
  returned: {},
  declined: {},
  cancelled: {},
  expired: {},
};

/**
 * Job series: active <-> paused; either -> cancelled. ended is no action: an active series whose
 * every occurrence has started is ended (shown at once), and nothing more can change it.
 */
export const SERIES_MACHINE: Machine = {
  active: { pause: 'paused', cancel: 'cancelled' },
  paused: { resume: 'active', cancel: 'cancelled' },
  cancelled: {},
  ended: {},
};

/** Application: pending -> accepted or rejected. */
export const APPLICATION_MACHINE: Machine = {
  pending: { accept: 'accepted', reject: 'rejected' },
  accepted: {},
  rejected: {},
};

/** The state an action leads to from `current`, or null when the action is not allowed there. */
export function nextState(machine: Machine, current: string, action: string): string | null {
  return machine[current]?.[action] ?? null;
}

export function allowedActions(machine: Machine, current: string): string[] {
  return Object.keys(machine[current] ?? {});
}

/** The states an action leaves from and the one it leads to (in our machines an action has one target). */
export function edgesOf<S extends string>(machine: Machine, action: string): { from: S[]; to: S } {
  const from = Object.keys(machine).filter((state) => nextState(machine, state, action) !== null) as S[];
  return { from, to: nextState(machine, from[0] ?? '', action) as S };
}

/** A state machine as a Markdown table for the OpenAPI descriptions. */
export function transitionsTable(machine: Machine): string {
  const rows = Object.entries(machine).map(
    ([state, actions]) =>
      `| ${state} | ${
        Object.entries(actions)
          .map(([action, next]) => `${action} → ${next}`)
          .join(', ') || '(final)'
      } |`,
  );
  return ['| State | Actions → next state |', '| --- | --- |', ...rows].join('\n');
}
