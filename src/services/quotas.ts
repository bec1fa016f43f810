/** The hourly quotas of each account (applications, bookings, messages, conversations), as routes see them. */

export { type AccountQuotas, QuotaExceeded } from '../repositories/account-quotas.js';
