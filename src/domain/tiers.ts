export const API_VERSION = '1.1.0';

export type Tier = 'anonymous' | 'developer' | 'sandbox';

export interface TierLimits {
  anonymous: number;
  developer: number;
  sandbox: number;
}

/** Key requests are reviewed within this many hours (spec part 5). */
export const KEY_REVIEW_HOURS = 24;

/** Requests are counted per minute (spec part 5). */
export const RATE_WINDOW_SECONDS = 60;

/** The access tiers of spec part 5, with the limits in force. */
export function describeTiers(limits: TierLimits) {
  return [
    { tier: 'anonymous', credential: 'none', rate_limit_per_minute: limits.anonymous, access: 'read only' },
    {
      tier: 'developer',
      credential: 'X-API-Key header',
      rate_limit_per_minute: limits.developer,
      access: 'read and write',
    },
    { tier: 'sandbox', credential: 'none', rate_limit_per_minute: limits.sandbox, access: '/v1/demo/*' },
  ] as const;
}

export function accessOf(tier: Tier): string {
  return tier === 'developer' ? 'read and write' : tier === 'sandbox' ? '/v1/demo/* only' : 'read only';
}
