/**
 * Passkeys (issue 31): WebAuthn registration on /account and sign-in on /signin, verified by
 * @simplewebauthn/server (a maintained, widely used implementation of the WebAuthn Level 3 checks:
 * origin, RP ID hash, challenge, user presence and verification, signature, counter), never by hand.
 * A challenge is kept as its SHA-256 for five minutes and taken (deleted) by the first response
 * that names it, so a ceremony's response works once. Passkeys must verify the person (a PIN or
 * biometrics on the device): a passkey is the whole sign-in, not a second factor.
 */
import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { Kysely } from 'kysely';
import type { AccountRow, Database, PasskeyRow } from '../db/schema.js';
import { newId } from '../domain/ids.js';
import { sha256Hex } from '../domain/secrets.js';
import { findAccount } from '../repositories/account-erasure.js';
import {
  deletePasskey,
  insertPasskey,
  insertPasskeyChallenge,
  passkeyOfCredential,
  passkeysOfAccount,
  recordPasskeyUse,
  takePasskeyChallenge,
} from '../repositories/passkeys.js';
import { inWriteTransaction } from '../repositories/write-transaction.js';
import { type CodeOutcome, type SessionStart, startSession } from './sign-in.js';

/** How long a browser has to answer a challenge. */
export const PASSKEY_CHALLENGE_MINUTES = 5;
/** The most passkeys one account keeps. */
export const MAX_PASSKEYS = 20;
/** The longest name a passkey may be given. */
export const MAX_PASSKEY_NAME = 60;
/** WebAuthn counters are unsigned 32-bit; both engines store a signed 32-bit integer. */
const MAX_STORED_COUNTER = 2 ** 31 - 1;

/** The relying party: this site, as people reach it (PUBLIC_URL). */
export interface RelyingParty {
  /** The host name of PUBLIC_URL (a passkey is bound to it). */
  id: string;
  /** The exact origin browsers send (scheme, host and port of PUBLIC_URL). */
  origin: string;
  name: string;
}

export function relyingPartyOf(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin, name: 'Karlsruhe Marketplace' };
}

async function keepChallenge(
  db: Kysely<Database>,
  now: Date,
  challenge: string,
  purpose: 'register' | 'signin',
  accountId: string | null,
): Promise<void> {
  await inWriteTransaction({ db, now, claim: null }, (trx) =>
    insertPasskeyChallenge(trx, {
      challenge_hash: sha256Hex(challenge),
      purpose,
      account_id: accountId,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + PASSKEY_CHALLENGE_MINUTES * 60_000).toISOString(),
    }),
  );
}

/**
 * The challenge check handed to the verifier: takes the challenge the response signed (once) and
 * accepts it only for this purpose and account, within its five minutes.
 */
function challengeTaker(db: Kysely<Database>, now: Date, purpose: 'register' | 'signin', accountId: string | null) {
  return async (challenge: string): Promise<boolean> => {
    const row = await inWriteTransaction({ db, now, claim: null }, (trx) =>
      takePasskeyChallenge(trx, sha256Hex(challenge)),
    );
    return (
      row !== undefined && row.purpose === purpose && row.account_id === accountId && row.expires_at > now.toISOString()
    );
  };
}

const transportsOf = (row: PasskeyRow): AuthenticatorTransport[] | undefined =>
  row.transports === null ? undefined : (JSON.parse(row.transports) as AuthenticatorTransport[]);

/** What a browser sent as a credential: an object shaped like a PublicKeyCredential's JSON, or nothing. */
function credentialJson<T extends RegistrationResponseJSON | AuthenticationResponseJSON>(
  value: unknown,
): T | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const { id, rawId, type, response } = value as Record<string, unknown>;
  const ok =
    typeof id === 'string' &&
    id.length > 0 &&
    id.length <= 1_400 &&
    typeof rawId === 'string' &&
    type === 'public-key' &&
    response !== null &&
    typeof response === 'object';
  return ok ? (value as T) : undefined;
}

/** Options for navigator.credentials.create(): a discoverable credential that verifies the person. */
export async function passkeyRegistrationOptions(
  db: Kysely<Database>,
  party: RelyingParty,
  account: AccountRow,
  now: Date,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await passkeysOfAccount(db, account.id);
  const options = await generateRegistrationOptions({
    rpName: party.name,
    rpID: party.id,
    userName: account.email,
    userDisplayName: account.name,
    // The user handle is the account's id (no personal data); the authenticator keeps it.
    userID: new TextEncoder().encode(account.id),
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: transportsOf(row) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    timeout: PASSKEY_CHALLENGE_MINUTES * 60_000,
  });
  await keepChallenge(db, now, options.challenge, 'register', account.id);
  return options;
}

export type PasskeyAdded =
  | { outcome: 'added'; passkey: PasskeyRow }
  | { outcome: 'invalid' | 'full' | 'known'; detail?: string };

/** Verifies a registration response of the account's browser and keeps the new passkey. */
export async function addPasskey(
  db: Kysely<Database>,
  party: RelyingParty,
  account: AccountRow,
  sent: unknown,
  name: string,
  now: Date,
): Promise<PasskeyAdded> {
  const response = credentialJson<RegistrationResponseJSON>(sent);
  if (!response) return { outcome: 'invalid', detail: 'not a credential' };
  if ((await passkeysOfAccount(db, account.id)).length >= MAX_PASSKEYS) return { outcome: 'full' };
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: challengeTaker(db, now, 'register', account.id),
      expectedOrigin: party.origin,
      expectedRPID: party.id,
      requireUserVerification: true,
    });
  } catch (error) {
    return { outcome: 'invalid', detail: error instanceof Error ? error.message : String(error) };
  }
  if (!verified.verified) return { outcome: 'invalid', detail: 'not verified' };
  const info = verified.registrationInfo;
  if (await passkeyOfCredential(db, info.credential.id)) return { outcome: 'known' };
  const passkey: PasskeyRow = {
    id: newId('pk'),
    credential_id: info.credential.id,
    account_id: account.id,
    public_key: Buffer.from(info.credential.publicKey).toString('base64url'),
    counter: Math.min(info.credential.counter, MAX_STORED_COUNTER),
    transports: info.credential.transports ? JSON.stringify(info.credential.transports) : null,
    device_type: info.credentialDeviceType,
    backed_up: info.credentialBackedUp ? 1 : 0,
    name: name.trim().slice(0, MAX_PASSKEY_NAME) || 'Passkey',
    created_at: now.toISOString(),
    last_used_at: null,
  };
  await inWriteTransaction({ db, now, claim: null }, (trx) => insertPasskey(trx, passkey));
  return { outcome: 'added', passkey };
}

/** Options for navigator.credentials.get(): any passkey of this site (the person picks one). */
export async function passkeySignInOptions(
  db: Kysely<Database>,
  party: RelyingParty,
  now: Date,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const options = await generateAuthenticationOptions({
    rpID: party.id,
    userVerification: 'required',
    timeout: PASSKEY_CHALLENGE_MINUTES * 60_000,
  });
  await keepChallenge(db, now, options.challenge, 'signin', null);
  return options;
}

export type PasskeySignIn =
  | Extract<CodeOutcome, { outcome: 'signed-in' | 'refused' }>
  | { outcome: 'invalid' | 'unknown-passkey'; detail?: string };

/**
 * A sign-in with a passkey: the credential must be one of ours, its response must verify against
 * a challenge handed out here (used once), and its account must be able to sign in; then a session
 * starts, as after a code.
 */
export async function signInWithPasskey(
  start: SessionStart,
  party: RelyingParty,
  sent: unknown,
): Promise<PasskeySignIn> {
  const { db, now } = start;
  const response = credentialJson<AuthenticationResponseJSON>(sent);
  if (!response) return { outcome: 'invalid', detail: 'not a credential' };
  const passkey = await passkeyOfCredential(db, response.id);
  if (!passkey) return { outcome: 'unknown-passkey' };
  let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challengeTaker(db, now, 'signin', null),
      expectedOrigin: party.origin,
      expectedRPID: party.id,
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(Buffer.from(passkey.public_key, 'base64url')),
        counter: passkey.counter,
        transports: transportsOf(passkey),
      },
      requireUserVerification: true,
    });
  } catch (error) {
    return { outcome: 'invalid', detail: error instanceof Error ? error.message : String(error) };
  }
  if (!verified.verified) return { outcome: 'invalid', detail: 'not verified' };
  const counter = Math.min(verified.authenticationInfo.newCounter, MAX_STORED_COUNTER);
  return inWriteTransaction({ db, now, claim: null }, async (trx) => {
    const account = await findAccount(trx, passkey.account_id);
    if (!account) return { outcome: 'unknown-passkey' } as const;
    const outcome = await startSession(trx, start, account);
    if (outcome.outcome === 'signed-in') await recordPasskeyUse(trx, passkey.id, counter, now);
    return outcome;
  });
}

/** The account's passkeys for its /account page, oldest first. */
export function passkeysOf(db: Kysely<Database>, accountId: string): Promise<PasskeyRow[]> {
  return passkeysOfAccount(db, accountId);
}

/** Removes one of the account's passkeys; false when the id is not one of them. */
export function removePasskey(db: Kysely<Database>, accountId: string, id: string, now: Date): Promise<boolean> {
  return inWriteTransaction({ db, now, claim: null }, (trx) => deletePasskey(trx, accountId, id));
}
