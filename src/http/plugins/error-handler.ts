import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../../services/database.js';
import { ApiError } from '../../services/errors.js';
import { ClaimLostError } from '../../services/idempotency.js';
import { QuotaExceeded } from '../../services/quotas.js';
import { requestLanguage, sayLanguage } from '../language.js';
import { validationToApiError } from '../validation.js';
import { inProgress } from './idempotency.js';
import type { SecurityPolicy } from './security-headers.js';

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

/**
 * Errors the router raises before any route runs: malformed %-encoding, an overlong path parameter.
 * No hook has run, so the security headers and the request id are set here, from the same policy.
 */
export const frameworkErrorWith =
  (policy: SecurityPolicy) =>
  (error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    reply.headers({ ...policy.jsonHeadersFor(request.headers.origin), 'x-request-id': request.id });
    return frameworkError(error, reply);
  };

function frameworkError(error: FastifyError, reply: FastifyReply): FastifyReply {
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

/** The most bytes of request line and headers together (Node's default; 431 beyond). */
export const MAX_HEADER_BYTES = 16 * 1024;

/**
 * Errors of a connection before any request is formed (Node's 'clientError'): a request line or
 * headers over MAX_HEADER_BYTES (431), headers or a body not arriving in time (408), bytes that are
 * no HTTP (400). Answered as ApiErrors straight on the socket, which is then closed, with the
 * security headers of every answer (no Origin is known: no CORS headers) and a new request id.
 */
export const clientErrorHandlerWith = (policy: SecurityPolicy) =>
  function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
    // A reset connection has nobody to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const answer = clientErrorAnswer(error.code);
    const requestId = randomUUID();
    // The one line of a request that never became one (no route): who, and why it was cut.
    this.log.info(
      {
        request_id: requestId,
        method: null,
        route: null,
        status: answer.status,
        error: answer.code,
        ip: socket.remoteAddress ?? null,
      },
      'request',
    );
    if (socket.writable) {
      const body = JSON.stringify(answer.toBody());
      const headers: Record<string, string> = {
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(body)),
        ...policy.jsonHeadersFor(undefined),
        'x-request-id': requestId,
        connection: 'close',
      };
      const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
      socket.write(`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n${head.join('')}\r\n${body}`);
    }
    socket.destroy();
  };

function clientErrorAnswer(code: string | undefined): ApiError {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new ApiError(408, 'request_timeout', 'The request did not arrive in time.', {
      suggestion: 'Send the whole request at once; headers and body have a time limit.',
    });
  }
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new ApiError(431, 'headers_too_large', `The request line and headers exceed ${MAX_HEADER_BYTES} bytes.`, {
      suggestion: 'Shorten the URL (use fewer or shorter query parameters) and send fewer or smaller headers.',
    });
  }
  return new ApiError(400, 'malformed_request', 'The request is not valid HTTP/1.1.', {
    suggestion: 'Send a well-formed HTTP request.',
  });
}

/** An ApiError as the answer, in the caller's language (Accept-Language: German or English). */
export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  const language = requestLanguage(reply.request);
  sayLanguage(reply, language);
  return reply
    .code(error.status)
    .headers(error.headers)
    .type('application/json; charset=utf-8')
    .send(error.toBody(language));
}

/** The one place where anything thrown becomes a response; 5xx details stay in the log. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof ApiError) return sendApiError(reply, error);
    if (error instanceof QuotaExceeded) {
      const what = {
        applications: 'applications',
        bookings: 'booking requests',
        messages: 'messages',
        conversations: 'new conversations',
      }[error.flow];
      return sendApiError(
        reply,
        new ApiError(
          429,
          'account_limit_reached',
          `This account sent ${error.limit} ${what} in the last hour, as many as it may.`,
          {
            suggestion: `Wait ${error.retryAfterSeconds} s (Retry-After). The limit guards against automated mass ${what}; write to the operator if your use needs more.`,
            headers: { 'retry-after': String(error.retryAfterSeconds) },
          },
        ),
      );
    }
    // A retry took the key over while this attempt ran; the retry's answer is the one that counts.
    if (error instanceof ClaimLostError) {
      return sendApiError(reply, inProgress('A retry with this Idempotency-Key took over this request.'));
    }
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
