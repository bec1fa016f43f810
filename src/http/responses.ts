/** Success responses as route schemas declare them, and the helpers that send them. */

import type { FastifyReply, FastifyRequest } from 'fastify';
import { BUDGET_HEADERS, LOCATION } from './error-catalogue.js';

/** A success response schema with its description and the budget headers, for the OpenAPI document. */
export function ok<T extends object>(schema: T, description: string): T & { description: string } {
  return { ...schema, description, headers: BUDGET_HEADERS };
}

/** A 201's response schema: as ok(), with the Location of what was created. */
export function created<T extends object>(schema: T, description: string): T & { description: string } {
  return {
    ...schema,
    description,
    headers: {
      ...LOCATION,
      ...BUDGET_HEADERS,
    },
  };
}

/** Answers 201 with the Location of what was created. */
export function sendCreated<T>(reply: FastifyReply, location: string, body: T): FastifyReply {
  return reply.code(201).header('location', location).send(body);
}

/**
 * An answer only its caller may see on a route whose answers are otherwise public (a removed item
 * for its owner): kept out of the shared response cache and out of every other cache.
 */
export function privately<T>(request: FastifyRequest, reply: FastifyReply, body: T): T {
  request.cacheVersion = null;
  reply.header('cache-control', 'private, no-store');
  return body;
}
