import type { AccountType } from '../../domain/key-request.js';
import type { FieldErrors, FieldValues } from './sign-in-pages.js';

/** As long as an address may be (RFC 5321) and a name as the key requests take it. */
const EMAIL_MAX = 254;
const NAME_MAX = 100;
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const CONTROL = /[\p{Cc}\p{Cf}]/u;

const field = (body: unknown, name: string): string | undefined => {
  const value = body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value.trim() : undefined;
};

function emailError(email: string | undefined): FieldErrors['email'] {
  if (!email) return { de: 'Geben Sie Ihre E-Mail-Adresse ein.', en: 'Enter your email address.' };
  if (email.length > EMAIL_MAX || !EMAIL.test(email) || CONTROL.test(email)) {
    return {
      de: 'Geben Sie eine E-Mail-Adresse der Form name@example.org ein.',
      en: 'Enter an email address in the form name@example.org.',
    };
  }
  return undefined;
}

export type CheckedSignIn = { values: FieldValues; errors: FieldErrors; email?: string };

/** The sign-in form: an address (trimmed, in lower case) or the message next to its field. */
export function checkSignIn(body: unknown): CheckedSignIn {
  const email = field(body, 'email');
  const error = emailError(email);
  const values = { email: email ?? '' };
  return error ? { values, errors: { email: error } } : { values, errors: {}, email: email?.toLowerCase() };
}

export type CheckedSignUp = {
  values: FieldValues;
  errors: FieldErrors;
  request?: { email: string; name: string; account_type: AccountType };
};

/** The sign-up form: name, address and account type, or a message next to each wrong field. */
export function checkSignUp(body: unknown): CheckedSignUp {
  const name = field(body, 'name');
  const email = field(body, 'email');
  const type = field(body, 'account_type');
  const values = { name: name ?? '', email: email ?? '', account_type: type ?? '' };
  const errors: FieldErrors = {};
  if (!name) errors.name = { de: 'Geben Sie Ihren Namen ein.', en: 'Enter your name.' };
  else if ([...name].length > NAME_MAX || CONTROL.test(name)) {
    errors.name = {
      de: `Der Name darf höchstens ${NAME_MAX} Zeichen ohne Steuerzeichen haben.`,
      en: `The name may have at most ${NAME_MAX} characters and no control characters.`,
    };
  }
  const badEmail = emailError(email);
  if (badEmail) errors.email = badEmail;
  if (type !== 'private' && type !== 'commercial') {
    errors.account_type = { de: 'Wählen Sie privat oder gewerblich.', en: 'Choose private or commercial.' };
  }
  if (Object.keys(errors).length > 0 || !name || !email) return { values, errors };
  return { values, errors, request: { name, email: email.toLowerCase(), account_type: type as AccountType } };
}
