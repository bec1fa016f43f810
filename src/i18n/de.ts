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
      payments: 'Zahlungen und Schadensmeldungen',
      reminders: 'Erinnerungen',
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
      excused_by_helper: {
        subject: 'Vertretung gesucht: „{{title}}“ am {{date}}',
        body: 'Ihre feste Hilfe hat sich für „{{title}}“ am {{date}} abgemeldet. Der Termin ist wieder offen: Nehmen Sie eine Vertretung an, die sich darauf bewirbt.',
      },
      excused_by_poster: {
        subject: 'Am {{date}} nicht gebraucht: „{{title}}“',
        body: 'Sie wurden für „{{title}}“ am {{date}} abgemeldet. Ihre anderen Termine bleiben, wie sie sind.',
      },
      action: 'Zum Auftrag: {{url}}',
    },
    series: {
      action: 'Zur Serie: {{url}}',
    },
    booking: {
      requested: {
        subject: 'Buchungsanfrage für „{{title}}“',
        body: 'Jemand möchte „{{title}}“ ausleihen ({{when}}). Bestätigen Sie die Anfrage oder lehnen Sie sie ab.',
      },
      booked: {
        subject: 'Neue Buchung: „{{title}}“',
        body: '„{{title}}“ ist gebucht ({{when}}): Die Sofortbuchung hat sie gleich bestätigt.',
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
      extension_requested: {
        subject: 'Verlängerung angefragt: „{{title}}“',
        body: 'Wer „{{title}}“ gebucht hat, möchte es bis {{when}} behalten. Nehmen Sie die Anfrage an oder lehnen Sie sie ab.',
      },
      extended: {
        subject: 'Buchung verlängert: „{{title}}“',
        body: '„{{title}}“ ist jetzt bis {{when}} gebucht: Die Sofortbuchung hat die Verlängerung gleich angenommen.',
      },
      extension_accepted: {
        subject: 'Verlängerung angenommen: „{{title}}“',
        body: 'Sie dürfen „{{title}}“ bis {{when}} behalten.',
      },
      extension_declined: {
        subject: 'Verlängerung abgelehnt: „{{title}}“',
        body: 'Ihre Anfrage, „{{title}}“ bis {{when}} zu behalten, wurde abgelehnt; die Buchung endet wie bisher.',
      },
      action: 'Zur Buchung: {{url}}',
    },
    payment: {
      confirm_received: {
        subject: 'Als bezahlt gemeldet: {{amount}} für „{{title}}“',
        body: 'Die zahlende Seite meldet {{amount}} für „{{title}}“ als bezahlt. Bestätigen Sie die Zahlung, sobald sie angekommen ist.',
      },
      pay_at_stripe: {
        subject: 'Zu zahlen: {{amount}} für „{{title}}“',
        body: '{{amount}} für „{{title}}“ warten auf Sie. Zahlen Sie bei Stripe, in Ihrem eigenen Browser.',
      },
      mark_paid: {
        subject: 'Zu zahlen: {{amount}} für „{{title}}“',
        body: '{{amount}} für „{{title}}“ warten auf Ihre Zahlung. Melden Sie sie als bezahlt, sobald Sie gezahlt haben.',
      },
      answer_claim: {
        subject: 'Schadensmeldung: „{{title}}“',
        body: 'Der Verleiher von „{{title}}“ fordert {{amount}} aus Ihrer Kaution. Nehmen Sie die Forderung an oder widersprechen Sie.',
      },
      action: 'Zur Zahlung: {{url}}',
      claim_action: 'Zur Schadensmeldung: {{url}}',
    },
    reminder: {
      review: {
        subject: 'Bewertung zu „{{title}}“ bis {{closes}}',
        body: 'Die Frist für Ihre Bewertung zu „{{title}}“ endet am {{closes}}. Keine Bewertung wird gezeigt, bevor beide Seiten bewertet haben oder die Frist abgelaufen ist.',
      },
      pickup: {
        subject: 'Morgen: Abholung von „{{title}}“',
        body: 'Die Buchung von „{{title}}“ ({{when}}) beginnt morgen: Die Abholung steht an.',
      },
      return: {
        subject: 'Morgen: Rückgabe von „{{title}}“',
        body: '„{{title}}“ ({{when}}) ist morgen zurückzugeben.',
      },
      overdue: {
        subject: 'Überfällig: „{{title}}“',
        body: '„{{title}}“ ({{when}}) hätte schon zurückgegeben werden sollen. Geben Sie es zurück oder vereinbaren Sie einen späteren Termin mit dem Verleiher.',
      },
    },
    digest: {
      name: 'Ihrer täglichen Übersicht',
      subject_one: 'Ihre tägliche Übersicht: {{count}} Benachrichtigung',
      subject_other: 'Ihre tägliche Übersicht: {{count}} Benachrichtigungen',
      intro: 'Was seit Ihrer letzten Übersicht geschehen ist:',
    },
  },
  errors: {
    invalid_parameter: {
      message: 'Der Parameter {{param}} ist ungültig.',
      suggestion: 'Prüfen Sie den Parameter anhand von /v1/openapi.json.',
    },
    unknown_parameter: {
      message: 'Den Parameter {{param}} gibt es hier nicht.',
      suggestion: 'Lassen Sie ihn weg oder prüfen Sie die Schreibweise anhand von /v1/openapi.json.',
    },
    duplicate_parameter: {
      message: 'Der Parameter {{param}} kam mehrfach.',
      suggestion: 'Senden Sie jeden Parameter nur einmal.',
    },
    missing_parameter: {
      message: 'Der Parameter {{param}} fehlt.',
      suggestion: 'Senden Sie ihn mit; was er annimmt, steht in /v1/openapi.json.',
    },
    parameter_out_of_range: {
      message: 'Der Wert von {{param}} liegt außerhalb des erlaubten Bereichs.',
      suggestion: 'Senden Sie einen Wert innerhalb der dokumentierten Grenzen.',
    },
    invalid_enum_value: {
      message: 'Der Parameter {{param}} kennt diesen Wert nicht.',
      suggestion: 'Senden Sie einen der Werte aus alternatives.',
    },
    conflicting_parameters: {
      message: 'Es kamen Parameter, die sich ausschließen ({{param}}).',
      suggestion: 'Senden Sie nur einen davon.',
    },
    not_found: {
      message: 'Zu {{param}} wurde nichts gefunden.',
      suggestion: 'Prüfen Sie die Kennung; die Listen zeigen, was es gibt.',
    },
    invalid_api_key: {
      message: 'Der API-Schlüssel ist ungültig.',
      suggestion: 'Senden Sie einen gültigen Schlüssel in X-API-Key (POST /v1/developer/key-requests beantragt einen).',
    },
    invalid_token: {
      message: 'Das Zugriffstoken ist ungültig.',
      suggestion: 'Holen Sie beim Autorisierungsserver ein neues Token und senden Sie es als Authorization.',
    },
    invalid_dpop_proof: {
      message: 'Der DPoP-Nachweis ist ungültig.',
      suggestion: 'Senden Sie für diese Anfrage einen frischen DPoP-Nachweis (RFC 9449).',
    },
    insufficient_scope: {
      message: 'Dem Token fehlt die nötige Berechtigung (Scope).',
      suggestion: 'Bitten Sie die Person um den Scope aus alternatives.',
    },
    not_delegable: {
      message: 'Das darf nur die Person selbst, keine App in ihrem Auftrag.',
      suggestion: 'Lassen Sie die Person es mit ihrem eigenen Schlüssel oder auf der Website tun.',
    },
    rate_limit_exceeded: {
      message: 'Zu viele Anfragen.',
      suggestion: 'Warten Sie so lange, wie Retry-After angibt, und versuchen Sie es dann erneut.',
    },
    too_many_streams: {
      message: 'Es sind zu viele Streams gleichzeitig offen.',
      suggestion: 'Schließen Sie einen Stream, bevor Sie einen neuen öffnen.',
    },
    account_limit_reached: {
      message: 'Das Konto hat sein stündliches Limit erreicht.',
      suggestion: 'Warten Sie so lange, wie Retry-After angibt.',
    },
    authentication_required: {
      message: 'Dafür braucht es einen Schlüssel oder ein Token.',
      suggestion: 'Senden Sie X-API-Key oder ein OAuth-Zugriffstoken.',
    },
    forbidden: {
      message: 'Das ist für Sie nicht erlaubt.',
      suggestion: 'Verwenden Sie ein Konto, das das darf.',
    },
    invalid_state_transition: {
      message: 'Das ist im jetzigen Zustand nicht möglich.',
      suggestion: 'alternatives nennt, was jetzt möglich ist.',
    },
    limit_reached: {
      message: 'Eine Grenze ist erreicht.',
      suggestion: 'Entfernen oder beenden Sie zuerst etwas, oder warten Sie.',
    },
    already_applied: {
      message: 'Diese Person hat sich bereits beworben.',
      suggestion: 'Warten Sie auf die Entscheidung über die Bewerbung.',
    },
    already_reviewed: {
      message: 'Dazu gibt es schon eine Bewertung.',
      suggestion: 'Eine Bewertung wird nur einmal geschrieben.',
    },
    already_replied: {
      message: 'Auf diese Bewertung wurde schon geantwortet.',
      suggestion: 'Eine Bewertung wird nur einmal beantwortet.',
    },
    not_reviewable: {
      message: 'Das kann nicht bewertet werden.',
      suggestion: 'Bewerten Sie einen erledigten Auftrag oder eine zurückgegebene Buchung, an der Sie beteiligt waren.',
    },
    completion_too_early: {
      message: 'Der Auftrag kann noch nicht abgeschlossen werden.',
      suggestion: 'Schließen Sie ihn ab, wenn sein Termin gekommen ist.',
    },
    completion_not_final: {
      message: 'Der Abschluss ist noch nicht endgültig.',
      suggestion: 'Warten Sie, bis die helfende Person bestätigt oder die Einspruchsfrist endet.',
    },
    review_window_closed: {
      message: 'Die Frist für Bewertungen ist abgelaufen.',
      suggestion: 'Bewertungen werden innerhalb der Frist geschrieben.',
    },
    booking_conflict: {
      message: 'Die Zeit ist schon belegt.',
      suggestion: 'Wählen Sie eine andere Zeit; die Verfügbarkeit des Angebots zeigt, was frei ist.',
    },
    outside_pick_up_window: {
      message: 'Das liegt außerhalb der Abholzeit.',
      suggestion: 'Holen Sie den Gegenstand an den gebuchten Tagen ab.',
    },
    claim_window_closed: {
      message: 'Die Frist für einen Anspruch ist abgelaufen.',
      suggestion: 'Ansprüche werden innerhalb der Frist nach der Rückgabe gestellt.',
    },
    already_claimed: {
      message: 'Es gibt schon einen Anspruch.',
      suggestion: 'Pro Buchung gibt es einen Anspruch.',
    },
    claim_pending: {
      message: 'Ein Anspruch ist noch offen.',
      suggestion: 'Warten Sie, bis darüber entschieden ist.',
    },
    no_show_too_early: {
      message: 'Ein Nichterscheinen kann erst ab dem Termin gemeldet werden.',
      suggestion: 'Bis dahin stornieren Sie stattdessen.',
    },
    no_show_window_closed: {
      message: 'Die Frist, ein Nichterscheinen zu melden, ist abgelaufen.',
      suggestion: 'Klären Sie es mit der anderen Seite oder melden Sie es dem Betreiber.',
    },
    payouts_unavailable: {
      message: 'Auszahlungen sind nicht verfügbar.',
      suggestion: 'Richten Sie zuerst Auszahlungen ein.',
    },
    payee_not_ready: {
      message: 'Die empfangende Seite kann noch keine Zahlungen erhalten.',
      suggestion: 'Sie richtet zuerst Auszahlungen ein.',
    },
    invalid_signature: {
      message: 'Die Signatur ist ungültig.',
      suggestion: 'Senden Sie die Anfrage so, wie der Anbieter sie signiert hat.',
    },
    provider_refused: {
      message: 'Der Zahlungsanbieter hat abgelehnt.',
      suggestion: 'Prüfen Sie die Zahlungsdaten oder zahlen Sie auf anderem Weg.',
    },
    no_counterpart: {
      message: 'Hierzu gibt es niemanden, dem Sie schreiben könnten.',
      suggestion: 'Schreiben Sie zu einem Auftrag, Angebot, einer Bewerbung oder Buchung mit einer anderen Seite.',
    },
    idempotency_key_reused: {
      message: 'Dieser Idempotency-Key wurde für eine andere Anfrage verwendet.',
      suggestion: 'Verwenden Sie für eine andere Anfrage einen neuen Schlüssel.',
    },
    idempotency_in_progress: {
      message: 'Eine Anfrage mit diesem Idempotency-Key läuft noch.',
      suggestion: 'Warten Sie einen Moment und senden Sie sie dann erneut.',
    },
    idempotency_response_lost: {
      message: 'Die Antwort auf die erste Anfrage mit diesem Schlüssel ist verloren.',
      suggestion: 'Prüfen Sie das Ergebnis und verwenden Sie bei Bedarf einen neuen Schlüssel.',
    },
    invalid_location: {
      message: 'Der Ort ist ungültig.',
      suggestion: 'Senden Sie eine Postleitzahl, einen Ortsnamen oder Koordinaten im Einzugsgebiet.',
    },
    unknown_place: {
      message: 'Den Ort kennen wir nicht.',
      suggestion: 'Senden Sie einen Ort im Raum Karlsruhe; alternatives nennt ähnliche Namen.',
    },
    ambiguous_place: {
      message: 'Der Ortsname ist mehrdeutig.',
      suggestion: 'Wählen Sie einen aus alternatives.',
    },
    webhook_url_not_allowed: {
      message: 'Diese Webhook-Adresse ist nicht erlaubt.',
      suggestion: 'Verwenden Sie eine öffentliche https-Adresse.',
    },
    confirmation_mismatch: {
      message: 'Die Bestätigung stimmt nicht.',
      suggestion: 'Senden Sie die E-Mail-Adresse des Kontos als confirm.',
    },
    export_in_progress: {
      message: 'Es läuft bereits ein Export.',
      suggestion: 'Warten Sie, bis er fertig ist.',
    },
    provider_details_required: {
      message: 'Zuerst sind die Anbieterangaben nötig.',
      suggestion: 'Senden Sie sie mit PUT /v1/me/provider.',
    },
    account_suspended: {
      message: 'Das Konto ist gesperrt.',
      suggestion: 'Legen Sie Widerspruch gegen die Entscheidung ein (POST /v1/me/moderation-decisions/{id}/appeal).',
    },
    appeal_not_allowed: {
      message: 'Ein Widerspruch ist hier nicht möglich.',
      suggestion: 'Widersprechen Sie einer Entscheidung über Ihr Konto innerhalb der Frist.',
    },
    route_not_found: {
      message: 'Diesen Endpunkt gibt es nicht.',
      suggestion: 'Prüfen Sie den Pfad anhand von /v1/openapi.json.',
    },
    method_not_allowed: {
      message: 'Diese Methode ist hier nicht erlaubt.',
      suggestion: 'Verwenden Sie eine der Methoden aus alternatives.',
    },
    payload_too_large: {
      message: 'Der Inhalt der Anfrage ist zu groß.',
      suggestion: 'Senden Sie einen kleineren Inhalt.',
    },
    headers_too_large: {
      message: 'Die Kopfzeilen der Anfrage sind zu groß.',
      suggestion: 'Senden Sie eine kürzere URL und weniger Kopfzeilen.',
    },
    request_timeout: {
      message: 'Die Anfrage kam nicht rechtzeitig an.',
      suggestion: 'Senden Sie die ganze Anfrage auf einmal.',
    },
    malformed_request: {
      message: 'Die Anfrage ist kein gültiges HTTP.',
      suggestion: 'Senden Sie eine korrekt aufgebaute Anfrage.',
    },
    unsupported_media_type: {
      message: 'Dieser Inhaltstyp wird nicht unterstützt.',
      suggestion: 'Senden Sie JSON mit Content-Type: application/json.',
    },
    invalid_body: {
      message: 'Der Inhalt der Anfrage ist ungültig.',
      suggestion: 'Prüfen Sie ihn anhand von /v1/openapi.json.',
    },
    invalid_json: {
      message: 'Der Inhalt der Anfrage ist kein gültiges JSON.',
      suggestion: 'Senden Sie korrekt aufgebautes JSON.',
    },
    internal_error: {
      message: 'Bei uns ist etwas schiefgegangen.',
      suggestion:
        'Versuchen Sie es gleich noch einmal; wenn es wieder passiert, melden Sie es mit der Uhrzeit der Anfrage.',
    },
    service_unavailable: {
      message: 'Der Dienst ist gerade nicht erreichbar.',
      suggestion: 'Versuchen Sie es in ein paar Sekunden noch einmal.',
    },
  },
  error_detail: 'Einzelheiten (englisch): {{message}} {{suggestion}}',
  error_no_param: 'der Anfrage',
  unsubscribe: {
    title: 'E-Mails abbestellen',
    confirm: 'E-Mails zu {{kindName}} an diese Adresse abbestellen?',
    button: 'Diese E-Mails abbestellen',
    done: 'Erledigt: Sie erhalten keine E-Mails zu {{kindName}} mehr. Andere Arten bleiben, wie sie waren; ändern Sie sie in Ihren Benachrichtigungseinstellungen.',
    invalid:
      'Dieser Link ist nicht (mehr) gültig. Was Sie erhalten, ändern Sie in Ihren Benachrichtigungseinstellungen.',
  },
};
