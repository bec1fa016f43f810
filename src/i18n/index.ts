import i18next, { type i18n, type TOptions } from 'i18next';
import type { Language } from '../domain/notifications.js';
import { de } from './de.js';
import { en, type Resources } from './en.js';

/**
 * German and English (issue 36) through i18next, one resource file per language (de.ts, en.ts).
 * The instance is made once, synchronously (the resources are in the bundle), and never changes
 * language: each call names the language it renders in, so concurrent requests never mix them.
 */

export const RESOURCES: Record<Language, Resources> = { de, en };

let instance: i18n | null = null;

function translator(): i18n {
  if (instance) return instance;
  const made = i18next.createInstance();
  void made.init({
    resources: { de: { translation: de }, en: { translation: en } },
    lng: 'de',
    fallbackLng: false,
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  instance = made;
  return made;
}

/** The text of `key` in `language`, with its values put in (count chooses the plural form). */
export function translate(language: Language, key: string, values: TOptions = {}): string {
  return translator().getFixedT(language)(key, values) as string;
}
