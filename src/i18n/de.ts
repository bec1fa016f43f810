import type { Resources } from './en.js';

/** German texts (issue 36): the same keys as en.ts, checked by the compiler and by test/i18n. */
export const de: Resources = {
  notification: {
    greeting: 'Guten Tag,',
    footer:
      'Sie erhalten diese E-Mail wegen Ihrer Benachrichtigungseinstellungen ({{settingsUrl}}). Diese E-Mails ({{kindName}}) abbestellen: {{unsubscribeUrl}}',
    unsubscribe: 'E-Mails zu {{kindName}} abbestellen',
    settings: 'Benachrichtigungseinstellungen',
    kinds: {
      messages: 'neuen Nachrichten',
      applications: 'Bewerbungen',
      bookings: 'Buchungen',
    },
    message: {
      subject_one: 'Neue Nachricht zu „{{title}}“',
      subject_other: '{{count}} neue Nachrichten zu „{{title}}“',
      body_one: 'Sie haben eine neue Nachricht in Ihrem Gespräch zu „{{title}}“.',
      body_other: 'Sie haben {{count}} neue Nachrichten in Ihrem Gespräch zu „{{title}}“.',
      action: 'Lesen: {{url}}',
    },
    application: {
      created: {
        subject: 'Neue Bewerbung für „{{title}}“',
        body: 'Eine Helferin oder ein Helfer hat sich für Ihren Auftrag „{{title}}“ beworben. Nehmen Sie die Bewerbung an oder lehnen Sie sie ab.',
      },
      accepted: {
        subject: 'Zusage: „{{title}}“',
        body: 'Ihre Bewerbung für „{{title}}“ wurde angenommen. Der Auftrag gehört Ihnen.',
      },
      rejected: {
        subject: 'Diesmal nicht: „{{title}}“',
        body: 'Ihre Bewerbung für „{{title}}“ wurde diesmal nicht angenommen.',
      },
      action: 'Zum Auftrag: {{url}}',
    },
    booking: {
      requested: {
        subject: 'Buchungsanfrage für „{{title}}“',
        body: 'Jemand möchte „{{title}}“ ausleihen ({{when}}). Bestätigen Sie die Anfrage oder lehnen Sie sie ab.',
      },
      confirmed: {
        subject: 'Buchung bestätigt: „{{title}}“',
        body: 'Ihre Buchung von „{{title}}“ ({{when}}) ist bestätigt.',
      },
      declined: {
        subject: 'Buchung abgelehnt: „{{title}}“',
        body: 'Ihre Buchungsanfrage für „{{title}}“ ({{when}}) wurde abgelehnt.',
      },
      expired: {
        subject: 'Buchungsanfrage abgelaufen: „{{title}}“',
        body: 'Ihre Buchungsanfrage für „{{title}}“ ({{when}}) wurde nicht rechtzeitig beantwortet und ist abgelaufen.',
      },
      cancelled: {
        subject: 'Buchung storniert: „{{title}}“',
        body: 'Die Buchung von „{{title}}“ ({{when}}) wurde von der anderen Seite storniert.',
      },
      action: 'Zur Buchung: {{url}}',
    },
    digest: {
      subject_one: 'Ihre tägliche Übersicht: {{count}} Benachrichtigung',
      subject_other: 'Ihre tägliche Übersicht: {{count}} Benachrichtigungen',
      intro: 'Was seit Ihrer letzten Übersicht geschehen ist:',
    },
  },
  unsubscribe: {
    title: 'E-Mails abbestellen',
    confirm: 'E-Mails zu {{kindName}} an diese Adresse abbestellen?',
    button: 'Diese E-Mails abbestellen',
    done: 'Erledigt: Sie erhalten keine E-Mails zu {{kindName}} mehr. Andere Arten bleiben, wie sie waren; ändern Sie sie in Ihren Benachrichtigungseinstellungen.',
    invalid:
      'Dieser Link ist nicht (mehr) gültig. Was Sie erhalten, ändern Sie in Ihren Benachrichtigungseinstellungen.',
  },
};
