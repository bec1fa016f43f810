/** The write operations of the API (issue 4; reviews and verification, issue 17; calendar feeds and saved searches, issue 18, whose unsubscribe link needs no key; the account's export and erasure, issue 19; drafts a person confirms, issue 21; job series, issue 35) and the reads registered with them: method, path and operationId, in registration order. */
export const WRITE_OPERATIONS = [
  'POST /v1/jobs createJob',
  'PATCH /v1/jobs/{id} updateJob',
  'POST /v1/jobs/{id}/cancel cancelJob',
  'POST /v1/jobs/{id}/complete completeJob',
  'POST /v1/job-series createJobSeries',
  'GET /v1/job-series listJobSeries',
  'GET /v1/job-series/{id} getJobSeries',
  'POST /v1/job-series/{id}/pause pauseJobSeries',
  'POST /v1/job-series/{id}/resume resumeJobSeries',
  'POST /v1/job-series/{id}/cancel cancelJobSeries',
  'POST /v1/job-series/{id}/occurrences/{date}/skip skipJobSeriesOccurrence',
  'POST /v1/jobs/{id}/applications applyToJob',
  'GET /v1/jobs/{id}/applications listJobApplications',
  'POST /v1/jobs/{id}/applications/{application_id}/accept acceptApplication',
  'POST /v1/jobs/{id}/applications/{application_id}/reject rejectApplication',
  'GET /v1/jobs/{id}/applications/{application_id} getApplication',
  'POST /v1/jobs/{id}/applications/{application_id}/confirm-completion confirmCompletion',
  'POST /v1/jobs/{id}/applications/{application_id}/no-show reportNoShow',
  'POST /v1/jobs/{id}/applications/{application_id}/object-to-completion objectToCompletion',
  'POST /v1/helpers createHelper',
  'GET /v1/helpers/{id} getHelper',
  'PATCH /v1/helpers/{id} updateHelper',
  'POST /v1/helpers/{id}/verification-requests requestHelperVerification',
  'POST /v1/listings createListing',
  'PATCH /v1/listings/{id} updateListing',
  'POST /v1/listings/{id}/pause pauseListing',
  'POST /v1/listings/{id}/resume resumeListing',
  'POST /v1/listings/{id}/archive archiveListing',
  'POST /v1/listings/{id}/bookings createBooking',
  'GET /v1/listings/{id}/availability getListingAvailability',
  'GET /v1/bookings/{id} getBooking',
  'POST /v1/bookings/{id}/confirm confirmBooking',
  'POST /v1/bookings/{id}/decline declineBooking',
  'POST /v1/bookings/{id}/cancel cancelBooking',
  'POST /v1/bookings/{id}/pick-up pickUpBooking',
  'POST /v1/bookings/{id}/return returnBooking',
  'POST /v1/conversations startConversation',
  'GET /v1/conversations listConversations',
  'GET /v1/conversations/{id} getConversation',
  'GET /v1/conversations/{id}/messages listMessages',
  'POST /v1/conversations/{id}/messages postMessage',
  'POST /v1/conversations/{id}/read markConversationRead',
  'POST /v1/jobs/{id}/applications/{application_id}/reviews reviewApplication',
  'POST /v1/bookings/{id}/reviews reviewBooking',
  'GET /v1/reviews/{id} getReview',
  'POST /v1/reviews/{id}/reply replyToReview',
  'GET /v1/helpers/{id}/reviews listHelperReviews',
  'GET /v1/listings/{id}/reviews listListingReviews',
  'GET /v1/jobs/{id}/location getJobLocation',
  'GET /v1/listings/{id}/location getListingLocation',
  'GET /v1/helpers/{id}/location getHelperLocation',
  'GET /v1/me/place-releases listMyPlaceReleases',
  'GET /v1/listings/{id}/calendar.ics getListingCalendar',
  'POST /v1/me/calendar-feed createCalendarFeed',
  'DELETE /v1/me/calendar-feed deleteCalendarFeed',
  'GET /v1/calendar-feeds/{token}.ics getCalendarFeed',
  'POST /v1/saved-searches createSavedSearch',
  'GET /v1/saved-searches listSavedSearches',
  'GET /v1/saved-searches/unsubscribe unsubscribeSavedSearchDigest',
  'POST /v1/saved-searches/unsubscribe unsubscribeSavedSearchDigestOneClick',
  'GET /v1/saved-searches/{id} getSavedSearch',
  'DELETE /v1/saved-searches/{id} deleteSavedSearch',
  'GET /v1/saved-searches/{id}/matches listSavedSearchMatches',
  'GET /v1/me/export exportMyData',
  'DELETE /v1/me eraseMyAccount',
  'PUT /v1/me/provider putMyProvider',
  'GET /v1/me/provider getMyProvider',
  'POST /v1/reports fileReport',
  'GET /v1/reports/{id} getReport',
  'GET /v1/me/moderation-decisions listMyModerationDecisions',
  'GET /v1/me/moderation-decisions/{id} getMyModerationDecision',
  'POST /v1/me/moderation-decisions/{id}/appeals appealModerationDecision',
  'GET /v1/transparency getTransparency',
  // Issue 32: payments, registered after the notices.
  'GET /v1/payments listPayments',
  'GET /v1/payments/{id} getPayment',
  'POST /v1/payments/{id}/paid markPaymentPaid',
  'POST /v1/payments/{id}/received confirmPaymentReceived',
  'POST /v1/payments/{id}/release releaseDeposit',
  'PUT /v1/me/bank-account putMyBankAccount',
  'GET /v1/me/bank-account getMyBankAccount',
  'DELETE /v1/me/bank-account deleteMyBankAccount',
  'GET /v1/me/payouts getMyPayouts',
  'POST /v1/me/payouts/onboarding startPayoutOnboarding',
  'POST /v1/payments/{id}/checkout checkoutPayment',
  // Damage claims on a booking's deposit (issue 32), after the payments.
  'POST /v1/bookings/{id}/claims fileClaim',
  'GET /v1/claims/{id} getClaim',
  'POST /v1/claims/{id}/accept acceptClaim',
  'POST /v1/claims/{id}/dispute disputeClaim',
  'POST /v1/drafts createDraft',
  'GET /v1/drafts/{id} getDraft',
] as const;

/**
 * Webhooks (developer key; ids of the account's own webhooks and deliveries), connected apps and
 * OAuth clients (issue 31), and the public event stream (issue 8) and the private one (issue 17),
 * in registration order, after the writes.
 */
export const EVENT_OPERATIONS = [
  'POST /v1/webhooks createWebhook',
  'GET /v1/webhooks listWebhooks',
  'GET /v1/webhooks/{id} getWebhook',
  'DELETE /v1/webhooks/{id} deleteWebhook',
  'GET /v1/webhooks/{id}/deliveries listWebhookDeliveries',
  'POST /v1/webhooks/{id}/deliveries/{delivery_id}/redeliver redeliverWebhookDelivery',
  // Issue 31: connected apps and OAuth clients, registered after the webhooks.
  'GET /v1/me/authorizations listMyAuthorizations',
  'DELETE /v1/me/authorizations/{id} revokeMyAuthorization',
  'POST /v1/oauth-clients createOauthClient',
  'GET /v1/oauth-clients listOauthClients',
  'GET /v1/oauth-clients/{id} getOauthClient',
  'PATCH /v1/oauth-clients/{id} updateOauthClient',
  'DELETE /v1/oauth-clients/{id} deleteOauthClient',
  'POST /v1/oauth-clients/{id}/secret rotateOauthClientSecret',
  'GET /v1/events/stream streamEvents',
  'GET /v1/me/events/stream streamMyEvents',
] as const;

/**
 * The MCP server over Streamable HTTP (src/mcp/http-route.ts): a POST, but not a REST write. It
 * is open to anonymous callers (read tools; writes need a key inside, as tool errors), takes a
 * JSON-RPC message rather than a resource, and names no ids in its path.
 */
export const AGENT_OPERATIONS = ['POST /mcp mcp'] as const;

/** "METHOD path" of each write operation. */
export const WRITE_ROUTES = WRITE_OPERATIONS.map((o) => o.split(' ').slice(0, 2).join(' '));

/** "METHOD path" of each webhook and event operation. */
export const EVENT_ROUTES = EVENT_OPERATIONS.map((o) => o.split(' ').slice(0, 2).join(' '));
