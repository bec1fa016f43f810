import { redactSecrets } from '../domain/calendar-feeds.js';
import type { Alternative, ApiErrorBody, ErrorCode } from '../schemas/error.js';

export type { ErrorCode };

interface ApiErrorInit {
  param?: string | null;
  suggestion: string;
  alternatives?: readonly Alternative[];
  headers?: Readonly<Record<string, string>>;
}

/** The one error type that leaves the service: a status, a stable code and advice for the caller. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly param: string | null;
  readonly suggestion: string;
  readonly alternatives: readonly Alternative[];
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, code: ErrorCode, message: string, init: ApiErrorInit) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.param = init.param ?? null;
    this.suggestion = init.suggestion;
    this.alternatives = init.alternatives ?? [];
    this.headers = init.headers ?? {};
  }

  /** The body sent. Texts that echo the request (a path, a value) never carry a key back out. */
  toBody(): ApiErrorBody {
    return {
      error: this.code,
      message: redactSecrets(this.message),
      param: this.param === null ? null : redactSecrets(this.param),
      suggestion: redactSecrets(this.suggestion),
      alternatives: [...this.alternatives],
      alternatives_count: this.alternatives.length,
    };
  }
}

export function badRequest(
  code: ErrorCode,
  param: string | null,
  message: string,
  suggestion: string,
  alternatives: readonly Alternative[] = [],
): ApiError {
  return new ApiError(400, code, message, { param, suggestion, alternatives });
}
