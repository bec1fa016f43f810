import type { MailMessage } from './mailer.js';

export interface WaitlistOfferEmailInput {
  to: string;
  entry: {
    id: string;
    listing_id: string;
    start_date: string;
    end_date: string;
    start_at: string | null;
    end_at: string | null;
    hold_until: string | null;
  };
  /** The listing's title (the owner wrote it for everyone to read). */
  title: string;
  baseUrl: string;
}

const berlin = (iso: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { timeZone: 'Europe/Berlin', dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(iso),
  );

/** The time someone waited for came free: it is held for them until hold_until. */
export function waitlistOfferEmail(input: WaitlistOfferEmailInput): MailMessage {
  const { to, entry, title, baseUrl } = input;
  const when = (locale: string) =>
    entry.start_at !== null && entry.end_at !== null
      ? `${berlin(entry.start_at, locale)} – ${berlin(entry.end_at, locale)}`
      : `${entry.start_date} – ${entry.end_date}`;
  const until = (locale: string) => (entry.hold_until ? berlin(entry.hold_until, locale) : '');
  const body =
    entry.start_at !== null
      ? `{"start_at":"${entry.start_at}","end_at":"${entry.end_at}"}`
      : `{"start_date":"${entry.start_date}","end_date":"${entry.end_date}"}`;
  const text = `(English below)

Guten Tag,

die Zeit, auf die Sie warten, ist frei geworden: „${title}“, ${when('de-DE')}.
Sie ist bis ${until('de-DE')} (Karlsruher Zeit) für Sie reserviert. Danach geht sie an die nächste Person auf der Warteliste.

Buchen: POST ${baseUrl}/v1/listings/${entry.listing_id}/bookings ${body}
Ihr Eintrag: ${baseUrl}/v1/me/waitlist (${entry.id})

----------------------------------------------------------------------

Hello,

the time you are waiting for has come free: "${title}", ${when('en-GB')}.
It is held for you until ${until('en-GB')} (Karlsruhe time); after that it goes to the next person on the waiting list.

Book it: POST ${baseUrl}/v1/listings/${entry.listing_id}/bookings ${body}
Your entry: ${baseUrl}/v1/me/waitlist (${entry.id})
`;
  return { to, subject: 'Frei geworden / The time you waited for is free - Karlsruhe Marketplace API', text };
}
