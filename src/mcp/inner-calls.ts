/**
 * The marker of the REST calls POST /mcp makes on behalf of its caller (through app.inject): they
 * are authenticated like any request, but not counted a second time; they answer with the budget
 * of the /mcp request that made them. The access plugin removes the marker's header
 * (INNER_CALL_HEADER) from every request and asks the verifier registered with
 * app.acceptInnerCalls; the marker itself is made and checked here.
 *
 * It cannot be forged: it holds a secret of 256 random bits made when the route is registered,
 * which never leaves the process, and a call id that is valid once, only while the outer request
 * waits for it. A marker that does not match exactly is ignored (the request is counted as usual).
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { type AccessContext, type CountedBudget, INNER_CALL_HEADER } from '../http/plugins/access.js';

export class InnerCalls {
  private readonly secret = randomBytes(32).toString('base64url');
  private readonly calls = new Map<string, CountedBudget>();

  /** The headers that mark one call made for `outer`, and how to forget the call if it is never made. */
  open(outer: AccessContext): { headers: Record<string, string>; close: () => void } {
    const id = randomUUID();
    const { tier, limit, remaining, resetSeconds } = outer;
    this.calls.set(id, { tier, limit, remaining, resetSeconds });
    return { headers: { [INNER_CALL_HEADER]: `${this.secret}.${id}` }, close: () => this.calls.delete(id) };
  }

  /** The outer budget when `marker` is genuine (used up by this), else undefined: the access plugin's verifier. */
  readonly verify = (marker: string): CountedBudget | undefined => {
    const dot = marker.indexOf('.');
    const given = Buffer.from(marker.slice(0, Math.max(0, dot)));
    const secret = Buffer.from(this.secret);
    if (given.length !== secret.length || !timingSafeEqual(given, secret)) return undefined;
    const id = marker.slice(dot + 1);
    const budget = this.calls.get(id);
    this.calls.delete(id);
    return budget;
  };
}
