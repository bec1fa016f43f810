/** Access tiers of spec part 5; the limits become configurable with the access-tier work. */
export const TIERS = [
  { tier: 'anonymous', credential: 'none', rate_limit_per_minute: 20, access: 'read only' },
  { tier: 'developer', credential: 'X-API-Key header', rate_limit_per_minute: 100, access: 'read and write' },
  { tier: 'sandbox', credential: 'none', rate_limit_per_minute: 20, access: '/v1/demo/*' },
] as const;

export const API_VERSION = '1.1.0';
