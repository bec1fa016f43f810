/**
 * DPoP at the resource server (RFC 9449 section 7): a DPoP-bound access token comes as
 * `Authorization: DPoP <token>` with a fresh proof in the `DPoP` header, signed by the key the
 * token is bound to. oidc-provider binds the token at its token endpoint but leaves the resource
 * server's check to the resource server, so the check is here, on `jose` (the JOSE library by the
 * same author that oidc-provider itself verifies proofs with): the signature with the key embedded
 * in the proof, its type and algorithm, then the claims RFC 9449 section 4.3 asks for. The replay
 * store is the library's own (`ReplayDetection`, in the shared database), so a proof works once
 * across every instance.
 */
import { createHash } from 'node:crypto';
import { calculateJwkThumbprint, EmbeddedJWK, errors, jwtVerify } from 'jose';

/** The algorithms a proof may be signed with: the same the authorization server takes. */
export const DPOP_ALGORITHMS = ['ES256', 'EdDSA', 'RS256', 'PS256'] as const;

/** How far a proof's `iat` may be from now, in seconds (the authorization server's own window). */
export const DPOP_WINDOW_SECONDS = 300;

/** What a proof is checked against: the request and the token it came with. */
export interface DpopRequest {
  /** The `DPoP` header(s) as received. */
  proof: string | string[] | undefined;
  method: string;
  /** The public URI of the request (origin and path; query and fragment are ignored). */
  uri: string;
  accessToken: string;
  /** The thumbprint the token is bound to (`cnf.jkt`). */
  jkt: string;
  now: Date;
  /** True when this proof's jti was not seen before (and remembers it). */
  unique: (jti: string, expiresAt: number) => Promise<boolean>;
}

/** Why a proof was refused, in words for the client's developer. */
export class DpopProofError extends Error {}

const withoutQuery = (uri: string): string | undefined => {
  try {
    const url = new URL(uri);
    return `${url.origin}${url.pathname}`;
  } catch {
    return undefined;
  }
};

/** Checks a proof; throws DpopProofError with the reason when it does not hold. */
export async function verifyDpopProof(request: DpopRequest): Promise<void> {
  const { proof } = request;
  if (proof === undefined) throw new DpopProofError('A DPoP-bound token needs a DPoP proof in the DPoP header.');
  if (Array.isArray(proof) || proof.includes(',')) throw new DpopProofError('Send exactly one DPoP header.');
  let verified: Awaited<ReturnType<typeof jwtVerify>>;
  try {
    verified = await jwtVerify(proof, EmbeddedJWK, {
      typ: 'dpop+jwt',
      algorithms: [...DPOP_ALGORITHMS],
      clockTolerance: DPOP_WINDOW_SECONDS,
      currentDate: request.now,
    });
  } catch (error) {
    const reason = error instanceof errors.JOSEError ? error.message : 'it is not a signed JWT';
    throw new DpopProofError(`The DPoP proof does not verify: ${reason}.`);
  }
  const { payload, protectedHeader } = verified;
  const now = Math.floor(request.now.getTime() / 1000);
  if (typeof payload.iat !== 'number' || Math.abs(now - payload.iat) > DPOP_WINDOW_SECONDS) {
    throw new DpopProofError(`The DPoP proof's iat must be within ${DPOP_WINDOW_SECONDS} seconds of now.`);
  }
  if (typeof payload.jti !== 'string' || payload.jti.length === 0 || payload.jti.length > 256) {
    throw new DpopProofError('The DPoP proof needs a jti of 1 to 256 characters.');
  }
  if (payload.htm !== request.method) {
    throw new DpopProofError(`The DPoP proof's htm must be ${request.method}, the method of this request.`);
  }
  const htu = typeof payload.htu === 'string' ? withoutQuery(payload.htu) : undefined;
  if (htu === undefined || htu !== withoutQuery(request.uri)) {
    throw new DpopProofError(`The DPoP proof's htu must be ${withoutQuery(request.uri)}, the URI of this request.`);
  }
  const ath = createHash('sha256').update(request.accessToken).digest('base64url');
  if (payload.ath !== ath) {
    throw new DpopProofError("The DPoP proof's ath must be the SHA-256 of this access token (base64url).");
  }
  const jwk = protectedHeader.jwk;
  if (!jwk || (await calculateJwkThumbprint(jwk, 'sha256')) !== request.jkt) {
    throw new DpopProofError('The DPoP proof is signed by another key than the one this access token is bound to.');
  }
  if (!(await request.unique(payload.jti, now + DPOP_WINDOW_SECONDS))) {
    throw new DpopProofError('This DPoP proof was used before; make a new one for every request.');
  }
}
