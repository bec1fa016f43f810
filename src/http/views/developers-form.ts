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

export interface FieldSpec {
  /** The label of the input. */
  label: string;
  /** The field as the subject of an error message. */
  subject: string;
  /** What to do when the field is empty. */
  missing: string;
  hint?: string;
  optional?: boolean;
}

/** The one description of every field: the page renders it, the error messages name fields by it. */
export const FIELD_SPECS: Record<FormField, FieldSpec> = {
  name: { label: 'Your name', subject: 'Your name', missing: 'Enter your name.' },
  email: {
    label: 'Email address',
    subject: 'The email address',
    missing: 'Enter your email address.',
    hint: 'We send the key to this address.',
  },
  organisation: {
    label: 'Organisation',
    subject: 'The organisation',
    missing: 'Enter your organisation, or leave the field empty.',
    hint: 'Company, club or project.',
    optional: true,
  },
  account_type: {
    label: 'Account type',
    subject: 'The account type',
    missing: 'Choose private or commercial.',
    hint: 'Commercial accounts may set job deadlines at most 30 days ahead.',
  },
  intended_use: {
    label: 'Intended use',
    subject: 'The intended use',
    missing: 'Tell us what you want to build.',
    hint: 'What you want to build, in a sentence or two (10 to 2,000 characters).',
  },
};

/** The posted form: what to show again, one message per invalid field, and the request when it is valid. */
export type CheckedForm =
  | { values: FormValues; errors: FieldErrors; request: undefined }
  | { values: FormValues; errors: Record<never, never>; request: NormalizedKeyRequest };

const fieldOf = (name: string) => FORM_FIELDS.find((field) => field === name);
const characters = (value: string) => [...value].length;
const count = (n: number | bigint) => n.toLocaleString('en');

/**
 * The known fields of a posted form. Other fields are ignored: browser extensions and password
 * managers add their own. A field sent twice stays an array, which validation refuses.
 */
function knownFields(body: unknown): Record<string, unknown> {
  const source = (body !== null && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  return Object.fromEntries(FORM_FIELDS.filter((field) => Object.hasOwn(source, field)).map((f) => [f, source[f]]));
}

/** One message a person can act on per invalid field, from the errors of the schema the JSON endpoint uses. */
function fieldErrors(form: Record<string, unknown>, problems: ReturnType<typeof Value.Errors>): FieldErrors {
  const errors: FieldErrors = {};
  for (const error of problems) {
    if (error.keyword === 'required') {
      for (const name of error.params.requiredProperties) {
        const field = fieldOf(name);
        if (field) errors[field] ??= FIELD_SPECS[field].missing;
      }
      continue;
    }
    const field = fieldOf(error.instancePath.slice(1));
    if (!field || errors[field]) continue;
    const { subject, missing } = FIELD_SPECS[field];
    const value = form[field];
    if (typeof value !== 'string') errors[field] = `${subject} was sent more than once; send it once.`;
    else if (value === '') errors[field] = missing;
    else if (field === 'email' && (error.keyword === 'format' || error.keyword === 'pattern'))
      errors[field] = 'Enter an email address in the form name@example.org.';
    else if (error.keyword === 'pattern' && directionControlIn(value))
      errors[field] =
        `${subject} contains ${directionControlIn(value)}, a character that changes the text direction. Please remove it.`;
    else if (error.keyword === 'pattern' || error.keyword === 'enum') errors[field] = missing;
    else if (error.keyword === 'maxLength')
      errors[field] =
        `${subject} can have at most ${count(error.params.limit)} characters; this one has ${count(characters(value))}. Please shorten it.`;
    else if (error.keyword === 'minLength')
      errors[field] =
        `${subject} needs at least ${count(error.params.limit)} characters; this one has ${count(characters(value))}. Tell us a little more.`;
    else errors[field] = `${subject} is not valid.`;
  }
  return errors;
}

/**
 * Reads and checks a posted form in one pass against KeyRequestBody, the schema of the JSON
 * endpoint, after the same normalisation, so both accept and refuse the same requests.
 */
export function checkForm(body: unknown): CheckedForm {
  const form = normalizeKeyRequest(knownFields(body));
  // Only text the visitor typed is shown again, never an array.
  const values: FormValues = Object.fromEntries(Object.entries(form).filter(([, value]) => typeof value === 'string'));
  const problems = Value.Errors(KeyRequestBody, form);
  if (problems.length > 0) return { values, errors: fieldErrors(form, problems), request: undefined };
  // No errors: a KeyRequestBody, normalised, so every field is present.
  return { values, errors: {}, request: form as unknown as NormalizedKeyRequest };
}
