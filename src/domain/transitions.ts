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
};

/** Listing: available <-> paused; either -> archived. */
export const LISTING_MACHINE: Machine = {
  available: { pause: 'paused', archive: 'archived' },
  paused: { resume: 'available', archive: 'archived' },
  archived: {},
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
