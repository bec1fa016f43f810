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
      action: 'See the job: {{url}}',
    },
    booking: {
      requested: {
        subject: 'Booking request for “{{title}}”',
        body: 'Someone wants to borrow “{{title}}” ({{when}}). Confirm or decline the request.',
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
      action: 'See the booking: {{url}}',
    },
    digest: {
      subject_one: 'Your daily summary: {{count}} notification',
      subject_other: 'Your daily summary: {{count}} notifications',
      intro: 'What happened since your last summary:',
    },
  },
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
