import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../../repositories/db.js';
import { ApiError } from '../errors.js';
import { validationToApiError } from '../validation.js';

/** Fastify's own client errors, by code, as ApiErrors. */
function fastifyClientError(error: FastifyError): ApiError | null {
  const status = error.statusCode ?? 500;
  if (status >= 500 || status < 400) return null;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, 'payload_too_large', 'The request body is too large.', {
        suggestion: 'Send a smaller body.',
      });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, 'unsupported_media_type', 'This content type is not supported.', {
        suggestion: 'Send JSON with Content-Type: application/json.',
        alternatives: ['application/json'],
      });
    default:
      return new ApiError(status, 'invalid_body', error.message, {
        suggestion: 'Check the request against /v1/openapi.json and send valid JSON.',
      });
  }
}

/** Errors the router raises before any route runs: malformed %-encoding, an overlong path parameter. */
export function frameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error.code === 'FST_ERR_BAD_URL') {
    return sendApiError(
      reply,
      new ApiError(400, 'invalid_parameter', 'The path is not valid percent-encoded UTF-8.', {
        suggestion: 'Percent-encode reserved and non-ASCII characters of path parameters as UTF-8 (e.g. %2F for /).',
      }),
    );
  }
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return sendApiError(
      reply,
      new ApiError(400, 'parameter_out_of_range', 'A path parameter is too long.', {
        suggestion: 'Ids are at most 64 characters; check the id in the path.',
      }),
    );
  }
  return sendApiError(
    reply,
    new ApiError(500, 'internal_error', 'Something went wrong on our side.', {
      suggestion: 'Try again in a moment; if it keeps happening, report it with the time of the request.',
    }),
  );
}

export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  return reply.code(error.status).headers(error.headers).type('application/json; charset=utf-8').send(error.toBody());
}

/** The one place where anything thrown becomes a response; 5xx details stay in the log. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof ApiError) return sendApiError(reply, error);
    if (error.validation) {
      const context = error.validationContext ?? 'querystring';
      const schemas = request.routeOptions.schema as Record<string, unknown> | undefined;
      const given = (context === 'params' ? request.params : context === 'body' ? request.body : request.query) ?? {};
      return sendApiError(
        reply,
        validationToApiError(error.validation, context, schemas?.[context] as never, given as Record<string, unknown>),
      );
    }
    const clientError = fastifyClientError(error);
    if (clientError) return sendApiError(reply, clientError);
    if (isDatabaseUnavailable(error)) {
      request.log.error({ err: error }, 'database unavailable');
      return sendApiError(
        reply,
        new ApiError(503, 'service_unavailable', 'The database cannot be reached right now.', {
          suggestion: 'Try again in a few seconds.',
          headers: { 'retry-after': '5' },
        }),
      );
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendApiError(
      reply,
      new ApiError(500, 'internal_error', 'Something went wrong on our side.', {
        suggestion: 'Try again in a moment; if it keeps happening, report it with the time of the request.',
      }),
    );
  });
}
