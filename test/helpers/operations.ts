/** The write operations of the API (issue 4): method, path and operationId, in registration order. */
export const WRITE_OPERATIONS = [
  'POST /v1/jobs createJob',
  'PATCH /v1/jobs/{id} updateJob',
  'POST /v1/jobs/{id}/cancel cancelJob',
  'POST /v1/jobs/{id}/complete completeJob',
  'POST /v1/jobs/{id}/applications applyToJob',
  'GET /v1/jobs/{id}/applications listJobApplications',
  'POST /v1/jobs/{id}/applications/{application_id}/accept acceptApplication',
  'POST /v1/jobs/{id}/applications/{application_id}/reject rejectApplication',
  'POST /v1/helpers createHelper',
  'GET /v1/helpers/{id} getHelper',
  'PATCH /v1/helpers/{id} updateHelper',
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
] as const;

/** "METHOD path" of each write operation. */
export const WRITE_ROUTES = WRITE_OPERATIONS.map((o) => o.split(' ').slice(0, 2).join(' '));
