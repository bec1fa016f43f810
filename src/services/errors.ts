import { redactSecrets } from '../domain/calendar-feeds.js';
import type { Language } from '../domain/notifications.js';
import { translate } from '../i18n/index.js';
import type { Alternative, ApiErrorBody, ErrorCode } from '../schemas/error.js';

export type { ErrorCode };

interface ApiErrorInit {
  param?: string | null;
  suggestion: string;
  alternatives?: readonly Alternative[];
  headers?: Readonly<Record<string, string>>;
  /** The same in German, where this error says it in its own words (else the code's German text, src/i18n/de.ts). */
  de?: { message: string; suggestion: string };
}

/** The one error type that leaves the service: a status, a stable code and advice for the caller. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly param: string | null;
  readonly suggestion: string;
  readonly alternatives: readonly Alternative[];
  readonly headers: Readonly<Record<string, string>>;
  readonly de: { message: string; suggestion: string } | undefined;

  constructor(status: number, code: ErrorCode, message: string, init: ApiErrorInit) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.param = init.param ?? null;
    this.suggestion = init.suggestion;
    this.alternatives = init.alternatives ?? [];
    this.headers = init.headers ?? {};
    this.de = init.de;
  }

  /**
   * The message and suggestion in a language (issue 36): English as written; German in this
   * error's own German words where it has them, else its code's German text (every code has one)
   * followed by the English details, so nothing the English answer says is lost.
   */
  words(language: Language): { message: string; suggestion: string } {
    if (language === 'en') return { message: this.message, suggestion: this.suggestion };
    if (this.de) return this.de;
    const param = this.param === null ? translate('de', 'error_no_param') : `„${this.param}“`;
    const detail = translate('de', 'error_detail', { message: this.message, suggestion: this.suggestion });
    return {
      message: translate('de', `errors.${this.code}.message`, { param }),
      suggestion: `${translate('de', `errors.${this.code}.suggestion`, { param })} ${detail}`,
    };
  }

  /** The body sent, in a language. Texts that echo the request (a path, a value) never carry a key back out. */
  toBody(language: Language = 'en'): ApiErrorBody {
    const words = this.words(language);
    return {
      error: this.code,
      message: redactSecrets(words.message),
      param: this.param === null ? null : redactSecrets(this.param),
      suggestion: redactSecrets(words.suggestion),
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
