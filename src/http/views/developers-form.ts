import { Value } from 'typebox/value';
import { type NormalizedKeyRequest, normalizeKeyRequest } from '../../domain/key-request.js';
import { directionControlIn } from '../../domain/text.js';
import { KeyRequestBody } from '../../schemas/access.js';

export const FORM_FIELDS = ['name', 'email', 'organisation', 'account_type', 'intended_use'] as const;
export type FormField = (typeof FORM_FIELDS)[number];
/** What the visitor typed, shown again when the form comes back with errors. */
export type FormValues = Partial<Record<FormField, string>>;
/** One message per field, shown next to it and in the summary at the top. */
export type FieldErrors = Partial<Record<FormField, string>>;

/** The page's languages (issue 36): German or English, by ?lang= or Accept-Language. */
export type FormLanguage = 'de' | 'en';
/** The same words in both languages. */
export type Words = Record<FormLanguage, string>;

export interface FieldSpec {
  /** The label of the input. */
  label: Words;
  /** The field as the subject of an error message. */
  subject: Words;
  /** What to do when the field is empty. */
  missing: Words;
  hint?: Words;
  optional?: boolean;
}

/** The one description of every field: the page renders it, the error messages name fields by it. */
export const FIELD_SPECS: Record<FormField, FieldSpec> = {
  name: {
    label: { en: 'Your name', de: 'Ihr Name' },
    subject: { en: 'Your name', de: 'Ihr Name' },
    missing: { en: 'Enter your name.', de: 'Geben Sie Ihren Namen ein.' },
  },
  email: {
    label: { en: 'Email address', de: 'E-Mail-Adresse' },
    subject: { en: 'The email address', de: 'Die E-Mail-Adresse' },
    missing: { en: 'Enter your email address.', de: 'Geben Sie Ihre E-Mail-Adresse ein.' },
    hint: { en: 'We send the key to this address.', de: 'An diese Adresse senden wir den Schlüssel.' },
  },
  organisation: {
    label: { en: 'Organisation', de: 'Organisation' },
    subject: { en: 'The organisation', de: 'Die Organisation' },
    missing: {
      en: 'Enter your organisation, or leave the field empty.',
      de: 'Geben Sie Ihre Organisation ein oder lassen Sie das Feld leer.',
    },
    hint: { en: 'Company, club or project.', de: 'Firma, Verein oder Projekt.' },
    optional: true,
  },
  account_type: {
    label: { en: 'Account type', de: 'Kontoart' },
    subject: { en: 'The account type', de: 'Die Kontoart' },
    missing: { en: 'Choose private or commercial.', de: 'Wählen Sie privat oder gewerblich.' },
    hint: {
      en: 'Commercial accounts may set job deadlines at most 30 days ahead.',
      de: 'Gewerbliche Konten dürfen Fristen für Aufträge höchstens 30 Tage im Voraus setzen.',
    },
  },
  intended_use: {
    label: { en: 'Intended use', de: 'Verwendungszweck' },
    subject: { en: 'The intended use', de: 'Der Verwendungszweck' },
    missing: { en: 'Tell us what you want to build.', de: 'Schreiben Sie uns, was Sie bauen möchten.' },
    hint: {
      en: 'What you want to build, in a sentence or two (10 to 2,000 characters).',
      de: 'Was Sie bauen möchten, in ein oder zwei Sätzen (10 bis 2.000 Zeichen).',
    },
  },
};

/** The posted form: what to show again, one message per invalid field, and the request when it is valid. */
export type CheckedForm =
  | { values: FormValues; errors: FieldErrors; request: undefined }
  | { values: FormValues; errors: Record<never, never>; request: NormalizedKeyRequest };

const fieldOf = (name: string) => FORM_FIELDS.find((field) => field === name);
const characters = (value: string) => [...value].length;
const count = (n: number | bigint, language: FormLanguage) => n.toLocaleString(language);

/**
 * The known fields of a posted form. Other fields are ignored: browser extensions and password
 * managers add their own. A field sent twice stays an array, which validation refuses.
 */
function knownFields(body: unknown): Record<string, unknown> {
  const source = (body !== null && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  return Object.fromEntries(FORM_FIELDS.filter((field) => Object.hasOwn(source, field)).map((f) => [f, source[f]]));
}

/** One message a person can act on per invalid field, from the errors of the schema the JSON endpoint uses. */
function fieldErrors(
  form: Record<string, unknown>,
  problems: ReturnType<typeof Value.Errors>,
  language: FormLanguage,
): FieldErrors {
  const errors: FieldErrors = {};
  const de = language === 'de';
  for (const error of problems) {
    if (error.keyword === 'required') {
      for (const name of error.params.requiredProperties) {
        const field = fieldOf(name);
        if (field) errors[field] ??= FIELD_SPECS[field].missing[language];
      }
      continue;
    }
    const field = fieldOf(error.instancePath.slice(1));
    if (!field || errors[field]) continue;
    const subject = FIELD_SPECS[field].subject[language];
    const missing = FIELD_SPECS[field].missing[language];
    const value = form[field];
    if (typeof value !== 'string')
      errors[field] = de
        ? `${subject} wurde mehrfach gesendet; senden Sie das Feld einmal.`
        : `${subject} was sent more than once; send it once.`;
    else if (value === '') errors[field] = missing;
    else if (field === 'email' && (error.keyword === 'format' || error.keyword === 'pattern'))
      errors[field] = de
        ? 'Geben Sie eine E-Mail-Adresse in der Form name@example.org ein.'
        : 'Enter an email address in the form name@example.org.';
    else if (error.keyword === 'pattern' && directionControlIn(value))
      errors[field] = de
        ? `${subject} enthält ${directionControlIn(value)}, ein Zeichen, das die Schreibrichtung ändert. Bitte entfernen Sie es.`
        : `${subject} contains ${directionControlIn(value)}, a character that changes the text direction. Please remove it.`;
    else if (error.keyword === 'pattern' || error.keyword === 'enum') errors[field] = missing;
    else if (error.keyword === 'maxLength') {
      const [limit, has] = [count(error.params.limit, language), count(characters(value), language)];
      errors[field] = de
        ? `${subject} darf höchstens ${limit} Zeichen haben; hier sind es ${has}. Bitte kürzen Sie.`
        : `${subject} can have at most ${limit} characters; this one has ${has}. Please shorten it.`;
    } else if (error.keyword === 'minLength') {
      const [limit, has] = [count(error.params.limit, language), count(characters(value), language)];
      errors[field] = de
        ? `${subject} braucht mindestens ${limit} Zeichen; hier sind es ${has}. Schreiben Sie etwas mehr.`
        : `${subject} needs at least ${limit} characters; this one has ${has}. Tell us a little more.`;
    } else errors[field] = de ? `${subject} ist ungültig.` : `${subject} is not valid.`;
  }
  return errors;
}

/**
 * Reads and checks a posted form in one pass against KeyRequestBody, the schema of the JSON
 * endpoint, after the same normalisation, so both accept and refuse the same requests; the
 * messages in the page's language.
 */
export function checkForm(body: unknown, language: FormLanguage = 'en'): CheckedForm {
  const form = normalizeKeyRequest(knownFields(body));
  // Only text the visitor typed is shown again, never an array.
  const values: FormValues = Object.fromEntries(Object.entries(form).filter(([, value]) => typeof value === 'string'));
  const problems = Value.Errors(KeyRequestBody, form);
  if (problems.length > 0) return { values, errors: fieldErrors(form, problems, language), request: undefined };
  // No errors: a KeyRequestBody, normalised, so every field is present.
  return { values, errors: {}, request: form as unknown as NormalizedKeyRequest };
}
