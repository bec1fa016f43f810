/** Who a developer account is: a private person or a business. */
export type AccountType = 'private' | 'commercial';

/** A developer key request as the form and the JSON endpoint take it (organisation may be left out). */
export interface KeyRequestFields {
  name: string;
  email: string;
  organisation?: string | null;
  account_type: AccountType;
  intended_use: string;
}

/** A key request as it is stored: every field present, no organisation written as null. */
export interface NormalizedKeyRequest {
  name: string;
  email: string;
  organisation: string | null;
  account_type: AccountType;
  intended_use: string;
}

const TRIMMED = ['name', 'email', 'organisation', 'intended_use'] as const;

/**
 * The one normalisation of a key request, for the form and the JSON endpoint alike: name, email,
 * organisation and intended use without surrounding spaces (autofill and pasting leave them), the
 * email in lower case, an empty or missing organisation as null; account_type passes through.
 *
 * Both routes run it before validation too, so that the length and non-blank rules judge what will
 * be stored ("   hi      " is too short, not ten characters). For that it accepts anything that
 * arrives: values that are not text, and fields it does not know, pass unchanged for validation
 * to refuse. Normalising twice changes nothing.
 */
export function normalizeKeyRequest(input: KeyRequestFields): NormalizedKeyRequest;
export function normalizeKeyRequest(input: Readonly<Record<string, unknown>>): Record<string, unknown>;
export function normalizeKeyRequest(input: object): object {
  const output: Record<string, unknown> = { ...input };
  for (const field of TRIMMED) {
    const value = output[field];
    if (typeof value === 'string') output[field] = value.trim();
  }
  if (typeof output.email === 'string') output.email = output.email.toLowerCase();
  if (output.organisation === '' || output.organisation === undefined) output.organisation = null;
  return output;
}
