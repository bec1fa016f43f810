import { type Json, type OpenApiObject, type Operation, operationsOf, ref } from './types.js';

// Success responses that differ at most in their description (a step of compactDocument, compact.ts).

/**
 * Moves every success response (below 400) that two or more operations answer alike, the same
 * headers and content with whatever description, to components.responses, named after the first
 * schema it answers (Booking) or else the first operation and status that answer it (searchJobs.200),
 * and references it from each. A
 * reference whose operation describes the response otherwise carries that description: in
 * OpenAPI 3.1 a Reference Object's description overrides the referenced one's, so the booking
 * confirmBooking answers stays "The booking, now confirmed." Runs after shareComponents, so the
 * responses' headers are references already.
 */
/** Success responses without a body of their own, named by what they say rather than by the first operation. */
const STATUS_NAMES: Readonly<Record<string, string>> = { '304': 'NotModified' };

export function shareSuccessResponses(doc: OpenApiObject): void {
  /** The schema a response answers, when it is one of components.schemas: Booking. */
  const schemaNameOf = (response: Json) => {
    const media = Object.values((response.content ?? {}) as Record<string, Json>);
    const target = media.length === 1 ? (media[0]?.schema as Json | undefined)?.$ref : undefined;
    return typeof target === 'string' ? /^#\/components\/schemas\/([^/]+)$/.exec(target)?.[1] : undefined;
  };
  const uses = new Map<string, { response: Json; at: [Operation, string][] }>();
  for (const [, , operation] of operationsOf(doc)) {
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      if (Number(status) >= 400 || '$ref' in response) continue;
      const { description: _, ...rest } = response;
      const key = JSON.stringify(rest);
      const use = uses.get(key) ?? { response, at: [] };
      use.at.push([operation, status]);
      uses.set(key, use);
    }
  }
  doc.components ??= {};
  const components = doc.components as Json & { responses?: Record<string, Json> };
  const shared: Record<string, Json> = {};
  for (const { response, at } of uses.values()) {
    if (at.length < 2) continue;
    const [first, status] = at[0] as [Operation, string];
    const base = (
      schemaNameOf(response) ??
      STATUS_NAMES[status] ??
      `${first.operationId ?? 'response'}.${status}`
    ).replace(/[^A-Za-z0-9._-]/g, '_');
    let name = base;
    for (let n = 2; name in shared || name in (components.responses ?? {}); n++) name = `${base}.${n}`;
    shared[name] = response;
    for (const [operation, s] of at) {
      const responses = operation.responses as Record<string, Json>;
      const description = responses[s]?.description;
      responses[s] =
        description === response.description ? ref('responses', name) : { ...ref('responses', name), description };
    }
  }
  if (Object.keys(shared).length > 0) components.responses = { ...components.responses, ...shared };
}

/**
 * components.responses that differ at most in their description (the ApiError responses with the
 * budget headers: 400, 401, 403, 404 ...) are written out once, in the first of them; the others
 * reference it with their own description, which overrides its (OpenAPI 3.1 Reference Object).
 */
export function chainAlikeResponses(doc: OpenApiObject): void {
  const responses = (doc.components?.responses ?? {}) as Record<string, Json>;
  const first = new Map<string, string>();
  for (const [name, response] of Object.entries(responses)) {
    if ('$ref' in response) continue;
    const { description, ...rest } = response;
    const key = JSON.stringify(rest);
    const base = first.get(key);
    if (base === undefined) first.set(key, name);
    else responses[name] = { ...ref('responses', base), description };
  }
}
