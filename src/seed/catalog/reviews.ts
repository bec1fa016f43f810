/** What seeded clients write about a helper, by stars. */
export const REVIEW_TEXTS: Readonly<Record<number, readonly string[]>> = {
  1: ['Leider nicht erschienen und nicht erreichbar.', 'Sehr unzuverlässig, würde ich nicht wieder buchen.'],
  2: ['Kam deutlich zu spät, Ergebnis nur mittelmäßig.', 'Hat funktioniert, aber mit viel Nachfragen.'],
  3: ['In Ordnung, aber nicht mehr.', 'Arbeit erledigt, Kommunikation ausbaufähig.'],
  4: [
    'Gute Arbeit, pünktlich und freundlich.',
    'Zuverlässig, gerne wieder.',
    'Hat gut geklappt, kleine Abstriche beim Aufräumen.',
  ],
  5: [
    'Super schnell, sehr sorgfältig, absolut empfehlenswert!',
    'Pünktlich, freundlich und hat mitgedacht. Gerne wieder!',
    'Hervorragend – besser hätte es nicht laufen können.',
  ],
};
