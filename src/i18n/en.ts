/**
 * English texts (issue 36), one resource file per language: de.ts has the same keys
 * (test/i18n/resources.test.ts fails when a key is in one and not the other). i18next reads
 * {{name}} as a value to put in.
 */
export const en = {
  notification: {
    greeting: 'Hello,',
    footer:
      'You get this e-mail because of your notification settings ({{settingsUrl}}). Stop these e-mails ({{kindName}}): {{unsubscribeUrl}}',
    unsubscribe: 'Stop e-mails about {{kindName}}',
    settings: 'Notification settings',
    kinds: {
      messages: 'new messages',
      applications: 'applications',
      bookings: 'bookings',
      payments: 'payments and damage claims',
      reminders: 'reminders',
    },
    message: {
      subject_one: 'A new message about “{{title}}”',
      subject_other: '{{count}} new messages about “{{title}}”',
      body_one: 'You have a new message in your conversation about “{{title}}”.',
      body_other: 'You have {{count}} new messages in your conversation about “{{title}}”.',
      action: 'Read it: {{url}}',
    },
    application: {
      created: {
        subject: 'New application for “{{title}}”',
        body: 'A helper applied for your job “{{title}}”. Accept or reject the application.',
      },
      accepted: {
        subject: 'Accepted: “{{title}}”',
        body: 'Your application for “{{title}}” was accepted. The job is yours.',
      },
      rejected: {
        subject: 'Not this time: “{{title}}”',
        body: 'Your application for “{{title}}” was not accepted this time.',
      },
      excused_by_helper: {
        subject: 'A substitute is needed: “{{title}}” on {{date}}',
        body: 'Your standing helper excused themselves from “{{title}}” on {{date}}. That occurrence is open again: accept a substitute who applies to it.',
      },
      excused_by_poster: {
        subject: 'Not needed on {{date}}: “{{title}}”',
        body: 'The poster excused you from “{{title}}” on {{date}}. Your other dates stay as they are.',
      },
      action: 'See the job: {{url}}',
    },
    series: {
      action: 'See the series: {{url}}',
    },
    booking: {
      requested: {
        subject: 'Booking request for “{{title}}”',
        body: 'Someone wants to borrow “{{title}}” ({{when}}). Confirm or decline the request.',
      },
      booked: {
        subject: 'New booking: “{{title}}”',
        body: '“{{title}}” is booked ({{when}}): instant booking confirmed it at once.',
      },
      confirmed: {
        subject: 'Booking confirmed: “{{title}}”',
        body: 'Your booking of “{{title}}” ({{when}}) is confirmed.',
      },
      declined: {
        subject: 'Booking declined: “{{title}}”',
        body: 'Your booking request for “{{title}}” ({{when}}) was declined.',
      },
      expired: {
        subject: 'Booking request expired: “{{title}}”',
        body: 'Your booking request for “{{title}}” ({{when}}) was not answered in time and expired.',
      },
      cancelled: {
        subject: 'Booking cancelled: “{{title}}”',
        body: 'The booking of “{{title}}” ({{when}}) was cancelled by the other side.',
      },
      extension_requested: {
        subject: 'Extension requested: “{{title}}”',
        body: 'The renter of “{{title}}” asks to keep it until {{when}}. Accept or decline the request.',
      },
      extended: {
        subject: 'Booking extended: “{{title}}”',
        body: '“{{title}}” is now booked until {{when}}: instant booking accepted the renter’s extension at once.',
      },
      extension_accepted: {
        subject: 'Extension accepted: “{{title}}”',
        body: 'You may keep “{{title}}” until {{when}}.',
      },
      extension_declined: {
        subject: 'Extension declined: “{{title}}”',
        body: 'Your request to keep “{{title}}” until {{when}} was declined; the booking ends as before.',
      },
      action: 'See the booking: {{url}}',
    },
    payment: {
      confirm_received: {
        subject: 'Marked as paid: {{amount}} for “{{title}}”',
        body: 'The payer says {{amount}} for “{{title}}” is paid. Confirm the payment once it has arrived.',
      },
      pay_at_stripe: {
        subject: 'To pay: {{amount}} for “{{title}}”',
        body: '{{amount}} for “{{title}}” waits for you. Pay it at Stripe, in your own browser.',
      },
      mark_paid: {
        subject: 'To pay: {{amount}} for “{{title}}”',
        body: '{{amount}} for “{{title}}” waits for your payment. Mark it paid once you paid.',
      },
      answer_claim: {
        subject: 'Damage claim: “{{title}}”',
        body: 'The owner of “{{title}}” claims {{amount}} from your deposit. Accept or dispute the claim.',
      },
      action: 'See the payment: {{url}}',
      claim_action: 'See the claim: {{url}}',
    },
    reminder: {
      pickup: {
        subject: 'Tomorrow: pick-up of “{{title}}”',
        body: 'The booking of “{{title}}” ({{when}}) begins tomorrow: the pick-up is due.',
      },
      return: {
        subject: 'Tomorrow: return of “{{title}}”',
        body: '“{{title}}” ({{when}}) is due back tomorrow.',
      },
      review: {
        subject: 'Review “{{title}}” by {{closes}}',
        body: 'The window to review “{{title}}” closes on {{closes}}. Neither side’s review is shown until both have reviewed or the window has closed.',
      },
      overdue: {
        subject: 'Overdue: “{{title}}”',
        body: '“{{title}}” ({{when}}) was due back and is not returned yet. Return it, or agree a later date with the owner.',
      },
    },
    digest: {
      name: 'your daily summary',
      subject_one: 'Your daily summary: {{count}} notification',
      subject_other: 'Your daily summary: {{count}} notifications',
      intro: 'What happened since your last summary:',
    },
  },
  errors: {
    invalid_parameter: {
      message: 'The parameter {{param}} is not valid.',
      suggestion: 'Check the parameter against /v1/openapi.json.',
    },
    unknown_parameter: {
      message: 'The parameter {{param}} is not known here.',
      suggestion: 'Remove it, or check its spelling against /v1/openapi.json.',
    },
    duplicate_parameter: {
      message: 'The parameter {{param}} was sent more than once.',
      suggestion: 'Send each parameter once.',
    },
    missing_parameter: {
      message: 'The parameter {{param}} is required.',
      suggestion: 'Send it; /v1/openapi.json says what it takes.',
    },
    parameter_out_of_range: {
      message: 'The parameter {{param}} is out of range.',
      suggestion: 'Send a value within the documented limits.',
    },
    invalid_enum_value: {
      message: 'The parameter {{param}} takes none of the values sent.',
      suggestion: 'Send one of the values listed in alternatives.',
    },
    conflicting_parameters: {
      message: 'Parameters were sent that exclude each other ({{param}}).',
      suggestion: 'Send only one of them.',
    },
    not_found: {
      message: 'Nothing was found for {{param}}.',
      suggestion: 'Check the id; the list endpoints show what exists.',
    },
    invalid_api_key: {
      message: 'The API key is not valid.',
      suggestion: 'Send a valid key in X-API-Key (POST /v1/developer/key-requests gets one).',
    },
    invalid_token: {
      message: 'The access token is not valid.',
      suggestion: 'Get a new token from the authorization server and send it as Authorization.',
    },
    invalid_dpop_proof: {
      message: 'The DPoP proof is not valid.',
      suggestion: 'Send a fresh DPoP proof for this request (RFC 9449).',
    },
    insufficient_scope: {
      message: 'The token lacks the scope this needs.',
      suggestion: 'Ask the person for the scope named in alternatives.',
    },
    not_delegable: {
      message: 'Only the person may do this; an app acting for them may not.',
      suggestion: 'Let the person do it with their own key or on the site.',
    },
    rate_limit_exceeded: {
      message: 'Too many requests.',
      suggestion: 'Wait as Retry-After says, then try again.',
    },
    too_many_streams: {
      message: 'Too many streams are open at once.',
      suggestion: 'Close a stream before opening another.',
    },
    account_limit_reached: {
      message: 'The account reached its hourly limit.',
      suggestion: 'Wait as Retry-After says.',
    },
    authentication_required: {
      message: 'This needs a key or a token.',
      suggestion: 'Send X-API-Key or an OAuth access token.',
    },
    forbidden: {
      message: 'This is not allowed for the caller.',
      suggestion: 'Use an account that may do this.',
    },
    invalid_state_transition: {
      message: 'This is not possible in the current state.',
      suggestion: 'alternatives lists what is possible now.',
    },
    limit_reached: {
      message: 'A limit is reached.',
      suggestion: 'Remove or end something first, or wait.',
    },
    already_applied: {
      message: 'This helper has applied already.',
      suggestion: 'Wait for the decision on the application.',
    },
    already_reviewed: {
      message: 'This was reviewed already.',
      suggestion: 'A review is written once.',
    },
    already_replied: {
      message: 'This review has a reply already.',
      suggestion: 'A review is answered once.',
    },
    not_reviewable: {
      message: 'This cannot be reviewed.',
      suggestion: 'Review a completed job or a returned booking you were part of.',
    },
    completion_too_early: {
      message: 'The job cannot be completed yet.',
      suggestion: 'Complete it once its time has come.',
    },
    completion_not_final: {
      message: 'The completion is not final yet.',
      suggestion: 'Wait until the helper confirms or the window to object closes.',
    },
    review_window_closed: {
      message: 'The window for reviews has closed.',
      suggestion: 'Reviews are written within the review window.',
    },
    booking_conflict: {
      message: 'The time is taken.',
      suggestion: "Choose another time; the listing's availability shows what is free.",
    },
    outside_pick_up_window: {
      message: 'This is outside the time for pick-up.',
      suggestion: "Pick the item up on the booking's days.",
    },
    claim_window_closed: {
      message: 'The time for a claim has passed.',
      suggestion: 'Claims are filed within the claim window after the return.',
    },
    already_claimed: {
      message: 'A claim was filed already.',
      suggestion: 'One claim per booking.',
    },
    claim_pending: {
      message: 'A claim is still open.',
      suggestion: 'Wait until it is decided.',
    },
    no_show_too_early: {
      message: "A no-show can be reported only from the job's time.",
      suggestion: 'Until then, cancel instead.',
    },
    no_show_window_closed: {
      message: 'The time to report a no-show has passed.',
      suggestion: 'Settle it with the other side, or report it to the operators.',
    },
    payouts_unavailable: {
      message: 'Payouts are not available.',
      suggestion: 'Set up payouts first.',
    },
    payee_not_ready: {
      message: 'The payee cannot receive payments yet.',
      suggestion: 'The payee sets up payouts first.',
    },
    invalid_signature: {
      message: 'The signature is not valid.',
      suggestion: 'Send the request as the provider signed it.',
    },
    provider_refused: {
      message: 'The payment provider refused.',
      suggestion: 'Check the payment details, or try another way to pay.',
    },
    no_counterpart: {
      message: 'There is nobody to write to about this.',
      suggestion: 'Write about a job, listing, application or booking with another party.',
    },
    idempotency_key_reused: {
      message: 'This Idempotency-Key was used for another request.',
      suggestion: 'Use a new key for a different request.',
    },
    idempotency_in_progress: {
      message: 'A request with this Idempotency-Key is still running.',
      suggestion: 'Wait a moment, then send it again.',
    },
    idempotency_response_lost: {
      message: 'The answer of the first request with this key is lost.',
      suggestion: 'Look up the result, then use a new key if needed.',
    },
    invalid_location: {
      message: 'The location is not valid.',
      suggestion: 'Send a postcode, a place name or coordinates in the service area.',
    },
    unknown_place: {
      message: 'The place is not known.',
      suggestion: 'Send a place in the Karlsruhe area; alternatives lists similar names.',
    },
    ambiguous_place: {
      message: 'The place name is ambiguous.',
      suggestion: 'Choose one of alternatives.',
    },
    webhook_url_not_allowed: {
      message: 'This webhook address is not allowed.',
      suggestion: 'Use a public https address.',
    },
    confirmation_mismatch: {
      message: 'The confirmation does not match.',
      suggestion: "Send the account's e-mail address as confirm.",
    },
    export_in_progress: {
      message: 'An export is running already.',
      suggestion: 'Wait for it to finish.',
    },
    provider_details_required: {
      message: 'Provider details are required first.',
      suggestion: 'Send them with PUT /v1/me/provider.',
    },
    account_suspended: {
      message: 'The account is suspended.',
      suggestion: 'Appeal the decision (POST /v1/me/moderation-decisions/{id}/appeal).',
    },
    appeal_not_allowed: {
      message: 'An appeal is not possible here.',
      suggestion: 'Appeal a decision about your account within the time allowed.',
    },
    route_not_found: {
      message: 'There is no such endpoint.',
      suggestion: 'Check the path against /v1/openapi.json.',
    },
    method_not_allowed: {
      message: 'This method is not allowed here.',
      suggestion: 'Use one of the methods in alternatives.',
    },
    payload_too_large: {
      message: 'The request body is too large.',
      suggestion: 'Send a smaller body.',
    },
    headers_too_large: {
      message: 'The request headers are too large.',
      suggestion: 'Send a shorter URL and fewer headers.',
    },
    request_timeout: {
      message: 'The request did not arrive in time.',
      suggestion: 'Send the whole request at once.',
    },
    malformed_request: {
      message: 'The request is not valid HTTP.',
      suggestion: 'Send a well-formed request.',
    },
    unsupported_media_type: {
      message: 'This content type is not supported.',
      suggestion: 'Send JSON with Content-Type: application/json.',
    },
    invalid_body: {
      message: 'The request body is not valid.',
      suggestion: 'Check it against /v1/openapi.json.',
    },
    invalid_json: {
      message: 'The request body is not valid JSON.',
      suggestion: 'Send well-formed JSON.',
    },
    internal_error: {
      message: 'Something went wrong on our side.',
      suggestion: 'Try again in a moment; if it keeps happening, report it with the time of the request.',
    },
    service_unavailable: {
      message: 'The service is not available right now.',
      suggestion: 'Try again in a few seconds.',
    },
  },
  error_detail: 'Details (English): {{message}} {{suggestion}}',
  error_no_param: 'of the request',
  unsubscribe: {
    title: 'Stop e-mails',
    confirm: 'Stop e-mails about {{kindName}} to this address?',
    button: 'Stop these e-mails',
    done: 'Done: you get no more e-mails about {{kindName}}. Other kinds stay as they were; change them in your notification settings.',
    invalid: 'This link is not valid (any more). Change what you receive in your notification settings.',
  },
} as const;

/** The shape every language's resources have: the English file's keys, any strings. */
type Shape<T> = { readonly [K in keyof T]: T[K] extends string ? string : Shape<T[K]> };
export type Resources = Shape<typeof en>;
