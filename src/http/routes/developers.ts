import type { FastifyReply } from 'fastify';
import { Value } from 'typebox/value';
import { KEY_REVIEW_HOURS } from '../../domain/tiers.js';
import { fileKeyRequest } from '../../repositories/key-requests.js';
import { KeyRequestBody } from '../schemas/access.js';
import {
  confirmationPage,
  type FieldErrors,
  FORM_FIELDS,
  type FormField,
  type FormValues,
  type PageFacts,
  registrationPage,
} from '../views/developers-page.js';
import type { Api, RouteDeps } from './route-kit.js';

// Scripts from nowhere (the page has none), styles only inline or from here, the form posts only here.
const CSP =
  "default-src 'self'; script-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/**
 * Every valid form fits: 2,554 characters at most, each up to 9 bytes once UTF-8 and %-encoded.
 * The app-wide form limit (16 KiB) would answer a long non-Latin intended use with a JSON 413.
 */
const FORM_BODY_LIMIT = 32 * 1024;

function sendPage(reply: FastifyReply, status: number, page: string): FastifyReply {
  return reply
    .code(status)
    .headers({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
      // The answers to a POST show the visitor's own entries: keep them out of shared caches.
      'cache-control': 'no-store',
    })
    .send(page);
}

/**
 * The known fields of the posted form, trimmed (autofill and pasting leave stray spaces). Other
 * fields are ignored: browser extensions and password managers add their own. A field sent twice
 * stays an array, which validation refuses.
 */
function readForm(body: unknown): Record<string, unknown> {
  const source = (body !== null && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const form: Record<string, unknown> = {};
  for (const field of FORM_FIELDS) {
    if (!Object.hasOwn(source, field)) continue;
    const value = source[field];
    form[field] = typeof value === 'string' ? value.trim() : value;
  }
  // An empty optional field means "none", as a missing one does in the JSON endpoint.
  if (form.organisation === '') delete form.organisation;
  return form;
}

const LABELS: Record<FormField, string> = {
  name: 'Your name',
  email: 'The email address',
  organisation: 'The organisation',
  account_type: 'The account type',
  intended_use: 'The intended use',
};

const MISSING: Record<FormField, string> = {
  name: 'Enter your name.',
  email: 'Enter your email address.',
  organisation: 'Enter your organisation, or leave the field empty.',
  account_type: 'Choose private or commercial.',
  intended_use: 'Tell us what you want to build.',
};

const characters = (value: string) => [...value].length;

/** One message a person can act on per invalid field, from the same schema the JSON endpoint validates with. */
function fieldErrors(form: Record<string, unknown>): FieldErrors {
  const errors: FieldErrors = {};
  const fieldOf = (name: string) => FORM_FIELDS.find((f) => f === name);
  for (const error of Value.Errors(KeyRequestBody, form)) {
    if (error.keyword === 'required') {
      for (const name of error.params.requiredProperties) {
        const field = fieldOf(name);
        if (field) errors[field] ??= MISSING[field];
      }
      continue;
    }
    const field = fieldOf(error.instancePath.slice(1));
    if (!field || errors[field]) continue;
    const value = form[field];
    if (typeof value !== 'string') errors[field] = `${LABELS[field]} was sent more than once; send it once.`;
    else if (value === '' || error.keyword === 'pattern' || error.keyword === 'enum') errors[field] = MISSING[field];
    else if (error.keyword === 'maxLength')
      errors[field] =
        `${LABELS[field]} can have at most ${error.params.limit.toLocaleString('en')} characters; this one has ${characters(value).toLocaleString('en')}. Please shorten it.`;
    else if (error.keyword === 'minLength')
      errors[field] =
        `${LABELS[field]} needs at least ${error.params.limit} characters; this one has ${characters(value)}. Tell us a little more.`;
    else if (error.keyword === 'format') errors[field] = 'Enter an email address in the form name@example.org.';
    else errors[field] = `${LABELS[field]} is not valid.`;
  }
  return errors;
}

/** What the form shows again after an error: only text the visitor typed, never an array. */
function shownValues(form: Record<string, unknown>): FormValues {
  return Object.fromEntries(Object.entries(form).filter(([, value]) => typeof value === 'string'));
}

/**
 * The human face of POST /v1/developer/key-requests: a form that works without JavaScript and
 * enforces the same KeyRequestBody schema, with each problem shown next to its field.
 */
export function developerPageRoutes(app: Api, { db, now, limits }: RouteDeps): void {
  const facts: PageFacts = {
    reviewHours: KEY_REVIEW_HOURS,
    developerLimit: limits.developer,
    anonymousLimit: limits.anonymous,
  };

  app.get('/developers', { schema: { hide: true } }, async (_request, reply) =>
    sendPage(reply, 200, registrationPage({}, {}, facts)),
  );

  app.post('/developers', { schema: { hide: true }, bodyLimit: FORM_BODY_LIMIT }, async (request, reply) => {
    const form = readForm(request.body);
    const errors = fieldErrors(form);
    if (!Value.Check(KeyRequestBody, form) || Object.keys(errors).length > 0) {
      return sendPage(reply, 400, registrationPage(shownValues(form), errors, facts));
    }
    const duplicate = () =>
      sendPage(
        reply,
        409,
        registrationPage(
          shownValues(form),
          {
            email: `A request for ${form.email} is already waiting for review. We answer within ${KEY_REVIEW_HOURS} hours of that request and send the key to this address.`,
          },
          facts,
        ),
      );
    const created = await fileKeyRequest(db, { ...form, organisation: form.organisation ?? null }, now());
    if (created === 'duplicate') return duplicate();
    // 202 as in the JSON endpoint: the request is filed, the decision comes later.
    return sendPage(reply, 202, confirmationPage(created, facts));
  });
}
