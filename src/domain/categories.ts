export const CATEGORIES = [
  'GARDENING',
  'CLEANING',
  'MOVING',
  'TECH_REPAIR',
  'CHILDCARE',
  'PETCARE',
  'SHOPPING',
  'EVENTS',
  'BORROWING',
  'OTHER',
] as const;

export type Category = (typeof CATEGORIES)[number];
export type Lang = 'de' | 'en';

interface CategoryInfo {
  name: Record<Lang, string>;
  description: Record<Lang, string>;
  /** Lower-case search terms (German and English) that mean this category. */
  synonyms: readonly string[];
}

export const CATEGORY_INFO: Readonly<Record<Category, CategoryInfo>> = {
  GARDENING: {
    name: { de: 'Gartenarbeit', en: 'Gardening' },
    description: {
      de: 'Rasen mähen, Hecken schneiden, Laub rechen, Beete pflegen; Gartengeräte zum Ausleihen.',
      en: 'Mowing, hedge trimming, raking leaves, bed care; garden tools to borrow.',
    },
    synonyms: ['garten', 'gartenarbeit', 'garden', 'gardening', 'rasen', 'hecke', 'lawn'],
  },
  CLEANING: {
    name: { de: 'Reinigung', en: 'Cleaning' },
    description: {
      de: 'Wohnungs- und Fensterreinigung, Endreinigung nach dem Auszug; Reinigungsgeräte zum Ausleihen.',
      en: 'Flat and window cleaning, move-out cleaning; cleaning machines to borrow.',
    },
    synonyms: ['reinigung', 'putzen', 'sauber', 'putzhilfe', 'cleaning', 'clean', 'housekeeping'],
  },
  MOVING: {
    name: { de: 'Umzug & Transport', en: 'Moving & transport' },
    description: {
      de: 'Umzugshilfe, Möbel tragen, Transporte; Umzugskartons und Sackkarren zum Ausleihen.',
      en: 'Moving help, carrying furniture, transport; moving boxes and hand trucks to borrow.',
    },
    synonyms: ['umzug', 'transport', 'tragen', 'moving', 'move', 'removal', 'möbel'],
  },
  TECH_REPAIR: {
    name: { de: 'Technik & Reparatur', en: 'Tech & repair' },
    description: {
      de: 'Computerhilfe, WLAN einrichten, kleine Reparaturen und Montage; Werkzeug zum Ausleihen.',
      en: 'Computer help, Wi-Fi setup, small repairs and assembly; tools to borrow.',
    },
    synonyms: ['technik', 'reparatur', 'computer', 'handwerk', 'tech', 'repair', 'it', 'werkzeug'],
  },
  CHILDCARE: {
    name: { de: 'Kinderbetreuung', en: 'Childcare' },
    description: {
      de: 'Babysitting, Abholung von Kita und Schule, Hausaufgabenhilfe; Kinderausstattung zum Ausleihen.',
      en: 'Babysitting, pick-ups from nursery and school, homework help; children’s gear to borrow.',
    },
    synonyms: ['kinder', 'kinderbetreuung', 'babysitter', 'babysitting', 'childcare', 'nanny', 'kita'],
  },
  PETCARE: {
    name: { de: 'Tierbetreuung', en: 'Pet care' },
    description: {
      de: 'Gassi gehen, Katzen füttern, Urlaubsbetreuung; Transportboxen und Zubehör zum Ausleihen.',
      en: 'Dog walking, feeding cats, holiday care; pet carriers and gear to borrow.',
    },
    synonyms: ['tier', 'tiere', 'tierbetreuung', 'hund', 'katze', 'gassi', 'pet', 'pets', 'petcare', 'pet care', 'dog'],
  },
  SHOPPING: {
    name: { de: 'Einkaufen & Besorgungen', en: 'Shopping & errands' },
    description: {
      de: 'Wocheneinkauf, Apothekengänge, Besorgungen; Lastenräder und Einkaufstrolleys zum Ausleihen.',
      en: 'Weekly groceries, pharmacy runs, errands; cargo bikes and shopping trolleys to borrow.',
    },
    synonyms: ['einkaufen', 'einkauf', 'besorgung', 'besorgungen', 'shopping', 'groceries', 'errands'],
  },
  EVENTS: {
    name: { de: 'Veranstaltungen', en: 'Events' },
    description: {
      de: 'Aufbau, Service und Abbau bei Feiern; Partyzelte, Bierzeltgarnituren und Technik zum Ausleihen.',
      en: 'Set-up, service and tear-down at parties; party tents, beer tables and sound gear to borrow.',
    },
    synonyms: ['veranstaltung', 'veranstaltungen', 'feier', 'party', 'fest', 'hochzeit', 'event', 'events'],
  },
  BORROWING: {
    name: { de: 'Leihen & Verleihen', en: 'Borrowing' },
    description: {
      de: 'Gesuche nach Dingen zum Ausleihen und Alltagsgegenstände, die Nachbarn verleihen.',
      en: 'Requests to borrow things and everyday items neighbours lend out.',
    },
    synonyms: ['leihen', 'ausleihen', 'verleihen', 'borrow', 'borrowing', 'lending', 'lend', 'rent'],
  },
  OTHER: {
    name: { de: 'Sonstiges', en: 'Other' },
    description: {
      de: 'Alles, was in keine andere Kategorie passt.',
      en: 'Anything that fits no other category.',
    },
    synonyms: ['sonstiges', 'andere', 'other', 'misc', 'miscellaneous'],
  },
};

/** Canonical value for a case-insensitive category value ("tech_repair" -> TECH_REPAIR), or null. */
export function categoryFromValue(value: string): Category | null {
  const upper = value.trim().toUpperCase();
  return (CATEGORIES as readonly string[]).includes(upper) ? (upper as Category) : null;
}

/**
 * Resolves a free search term: a category value in any case, or a German or English name or synonym
 * ("gardening", "Garten", "Pet care").
 */
export function categoryFromTerm(term: string): Category | null {
  const byValue = categoryFromValue(term.replace(/[\s-]+/g, '_'));
  if (byValue) return byValue;
  const needle = term.trim().toLowerCase();
  for (const category of CATEGORIES) {
    const info = CATEGORY_INFO[category];
    if (
      info.synonyms.includes(needle) ||
      info.name.de.toLowerCase() === needle ||
      info.name.en.toLowerCase() === needle
    ) {
      return category;
    }
  }
  return null;
}
