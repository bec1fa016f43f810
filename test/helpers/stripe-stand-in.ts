/**
 * A stand-in for the part of Stripe's HTTP API the marketplace uses: Connect Express accounts and
 * their onboarding, Checkout (payment and setup mode), PaymentIntents (manual capture, off-session
 * charges of a saved card, cancellation), refunds, transfers, balance transactions and events with
 * signed webhooks. Stateful and in-process, served over real HTTP on 127.0.0.1, so the service and
 * the tests drive it with the official SDK:
 *
 *   const stripe = await startStripeStandIn({ webhookUrl, webhookSecret });
 *   t.after(() => stripe.close());
 *   const client = new Stripe('sk_test_x', { host: '127.0.0.1', port: stripe.port, protocol: 'http' });
 *
 * Every object it answers starts from Stripe's own fixture of its kind (test/fixtures/stripe/, a
 * copy of the OpenAPI fixtures) and is then overwritten with the live state, typed against the
 * SDK's types, so `npm run typecheck` proves the shapes.
 *
 * Behaviour, as Stripe has it:
 * - requests: form-encoded bodies in bracket notation, `Authorization: Bearer sk_test_...` (401
 *   otherwise), unknown parameters refused (400 parameter_unknown), missing ones named in `param`;
 *   errors as `{ error: { type, code, message, param, decline_code?, payment_intent? } }`.
 * - idempotency: every POST with an `Idempotency-Key` stores its answer for 24 hours of the clock
 *   (successes, card errors and the errors of an endpoint that began to run, such as
 *   payment_intent_unexpected_state or amount_too_large; not a request refused for its parameters,
 *   which may be corrected and sent again); the same key with the same parameters replays it
 *   (`Idempotent-Replayed: true`, `Original-Request`) without doing anything, with other parameters
 *   or on another path it answers 400 idempotency_error.
 * - Checkout: the PaymentIntent (or SetupIntent) is made when the payer confirms, not before
 *   (payment_intent is null until then); a declined card leaves the session open with the failed
 *   PaymentIntent attached (a later card confirms the same one). An authorised manual-capture
 *   session completes with payment_status 'paid', as Stripe reports it (the card was authorised;
 *   the PaymentIntent is requires_capture), and `url` is null once the session is not open.
 * - a customer is made when customer_creation is 'always', when the card is saved
 *   (payment_intent_data[setup_future_usage]) or in setup mode; the card is then attached to it.
 * - capture: only from requires_capture, any amount up to the authorised one; the rest is released
 *   (amount_received is what was captured, the charge's amount_captured too). The charge's
 *   amount_refunded counts refunds only (not the released rest). A refund may take at most
 *   amount_captured - amount_refunded (else 400 amount_too_large).
 * - destination charges (transfer_data[destination]): the destination must exist and be onboarded
 *   (else 400 insufficient_capabilities_for_transfer); at capture the platform books a `charge`
 *   (+amount, fee by `fees`, 0 by default), a `transfer` to the destination (-transfer amount) and an
 *   `application_fee` (+fee) balance transaction; a refund books `refund` (-), and with
 *   reverse_transfer / refund_application_fee a proportional `transfer_refund` (+) /
 *   `application_fee_refund` (-). Transfers book `transfer` (-). Charges and application fees are
 *   pending for `availableAfterDays` (7) of the clock, except with the card 4000000000000077;
 *   a transfer without source_transaction needs that much available balance (400
 *   balance_insufficient), with one at most what is left of that charge.
 * - authorisations lapse after `authorizationDays` (7) of the clock (requires_capture -> canceled,
 *   cancellation_reason 'automatic'); open sessions expire at expires_at. Both happen when any
 *   request arrives or `sweep()` is called, or at once with `lapse()` / the expire endpoint.
 * - events (only these types): checkout.session.completed, checkout.session.expired,
 *   payment_intent.amount_capturable_updated, payment_intent.succeeded, payment_intent.canceled,
 *   payment_intent.payment_failed, charge.refunded, refund.created, transfer.created,
 *   account.updated (with previous_attributes), setup_intent.succeeded, setup_intent.setup_failed.
 *   Each is posted to the webhook URL after the answer of the request that caused it, one at a time,
 *   in order, signed with the SDK's generateTestHeaderString (timestamp of the real clock, which is
 *   what constructEvent checks); a non-2xx answer is retried `webhookRetries` times with a doubling
 *   backoff, while later events go on (so a retry arrives out of order, as with Stripe).
 *
 * - not modelled: the Stripe-Account header (400), subscriptions, Prices (line_items take
 *   price_data), `line_items` expansion, other event types (payment_intent.created, charge.*).
 * - `requests` logs the /v1 API requests (not the browser pages); `pay()`, `completeOnboarding()`
 *   and the pages cause events with `request.id` null, as Stripe's own automatic ones.
 *
 * Test cards: 4242424242424242 succeeds; 4000000000000002 is declined (generic_decline);
 * 4000000000009995 is declined (insufficient_funds); 4000002760003184 pays in Checkout but every
 * later off-session charge fails with authentication_required; 4000000000000341 can be saved but
 * every charge is declined; 4000000000000077 succeeds with its funds available at once.
 */
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import Stripe from 'stripe';

export const STRIPE_API_VERSION: string = Stripe.API_VERSION;

export const TEST_CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  authenticationRequired: '4000002760003184',
  declinesAfterAttaching: '4000000000000341',
  availableBalance: '4000000000000077',
} as const;

export type StandInFailure =
  | 'timeout'
  | 'server_error'
  | 'card_declined'
  | 'authentication_required'
  | 'transfer_failed';

export interface StripeStandInOptions {
  /** Where events are posted (127.0.0.1 or localhost only); none: events are only recorded. */
  webhookUrl?: string;
  webhookSecret?: string;
  /** The one secret key accepted; by default any `sk_test_...` key. */
  apiKey?: string;
  /** The clock `created`, expiries and lapses are read from (`advance()` moves it on). */
  now?: () => Date;
  /** Retries of a delivery answered other than 2xx (default 3), after backoff, 2x backoff, ... ms (default 50). */
  webhookRetries?: number;
  webhookBackoffMs?: number;
  webhookTimeoutMs?: number;
  /** How long a 'timeout' injection holds the answer before it destroys the socket (default 5000 ms). */
  timeoutHoldMs?: number;
  /** Days a charge's funds stay pending (default 7). */
  availableAfterDays?: number;
  /** Days an authorisation lasts before it lapses (default 7). */
  authorizationDays?: number;
  /** Stripe's processing fee on a captured charge: percent of it plus fixed cents (default none). */
  fees?: { percent?: number; fixed?: number };
}

/** One POST of an event to the webhook URL, with what the receiver answered. */
export interface WebhookDelivery {
  eventId: string;
  type: string;
  /** 1 for the first attempt, 2... for the retries of a failed one. */
  attempt: number;
  /** A second delivery asked for with redeliver(). */
  redelivery: boolean;
  /** The receiver's HTTP status, null when it could not be reached. */
  status: number | null;
  body: string;
  error: string | null;
  /** Real time, ms. */
  at: number;
}

/** An API request as it arrived, with the answer's status. */
export interface LoggedRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  /** The parameters as sent (strings), nested from the bracket notation. */
  params: Record<string, unknown>;
  status: number;
  replayed: boolean;
  injected: StandInFailure | null;
}

/** What the payer's browser got from the hosted checkout (pay() or POST /checkout/<id>). */
export interface PayResult {
  ok: boolean;
  /** 303 with `location` (success_url) when paid; 402 declined; 400 invalid card; 410 not open. */
  status: number;
  location: string | null;
  session: Stripe.Checkout.Session;
  paymentIntent: Stripe.PaymentIntent | null;
  setupIntent: Stripe.SetupIntent | null;
  error: { code: string; decline_code?: string; message: string } | null;
}

// ---------------------------------------------------------------------------------------------
// Fixtures, ids, amounts

const FIXTURES = new URL('../fixtures/stripe/', import.meta.url);
function fixture<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`${name}.json`, FIXTURES), 'utf8')) as T;
}
const BASE = {
  account: fixture<Stripe.Account>('account'),
  accountLink: fixture<Stripe.AccountLink>('account_link'),
  applicationFee: fixture<Stripe.ApplicationFee>('application_fee'),
  balance: fixture<Stripe.Balance>('balance'),
  balanceTransaction: fixture<Stripe.BalanceTransaction>('balance_transaction'),
  charge: fixture<Stripe.Charge>('charge'),
  checkoutSession: fixture<Stripe.Checkout.Session>('checkout.session'),
  customer: fixture<Stripe.Customer>('customer'),
  event: fixture<Stripe.Event>('event'),
  feeRefund: fixture<Stripe.FeeRefund>('fee_refund'),
  paymentIntent: fixture<Stripe.PaymentIntent>('payment_intent'),
  paymentMethod: fixture<Stripe.PaymentMethod>('payment_method'),
  refund: fixture<Stripe.Refund>('refund'),
  setupIntent: fixture<Stripe.SetupIntent>('setup_intent'),
  transfer: fixture<Stripe.Transfer>('transfer'),
  transferReversal: fixture<Stripe.TransferReversal>('transfer_reversal'),
};
function base<K extends keyof typeof BASE>(kind: K): (typeof BASE)[K] {
  return structuredClone(BASE[kind]);
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
function random(length: number): string {
  let text = '';
  for (const byte of randomBytes(length)) text += ALPHABET.charAt(byte % ALPHABET.length);
  return text;
}
function newId(prefix: string, length = 24): string {
  return `${prefix}_${random(length)}`;
}

function money(cents: number, currency: string): string {
  const amount = (cents / 100).toFixed(2);
  return currency === 'eur' ? `€${amount}` : `${amount} ${currency}`;
}

const CURRENCY_OF_COUNTRY: Record<string, string> = {
  US: 'usd',
  GB: 'gbp',
  CH: 'chf',
  SE: 'sek',
  DK: 'dkk',
  PL: 'pln',
};
const DAY = 86_400;
const MINIMUM_CHARGE = 50;

function luhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

function brandOf(number: string): string {
  if (number.startsWith('4')) return 'visa';
  if (/^5[1-5]/.test(number) || /^2[2-7]/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  return 'unknown';
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// ---------------------------------------------------------------------------------------------
// Errors

interface StripeErrorBody {
  type: 'invalid_request_error' | 'card_error' | 'api_error' | 'idempotency_error';
  message: string;
  code?: string;
  decline_code?: string;
  param?: string;
  doc_url?: string;
  charge?: string;
  payment_intent?: Stripe.PaymentIntent;
  payment_method?: Stripe.PaymentMethod;
  request_log_url?: string;
}

/** Errors of an endpoint that began to run (its answer is stored for the idempotency key). */
const STATE_ERRORS = new Set([
  'payment_intent_unexpected_state',
  'amount_too_large',
  'charge_already_refunded',
  'charge_not_refundable',
  'balance_insufficient',
]);

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
  ) {
    super(body.message);
  }
}

function invalid(message: string, param?: string, code?: string): ApiError {
  return new ApiError(400, {
    type: 'invalid_request_error',
    message,
    ...(code ? { code, doc_url: `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}` } : {}),
    ...(param ? { param } : {}),
  });
}

/** A reference in a parameter to an object that does not exist (400), or a retrieval of one (404). */
function noSuch(object: string, id: string, param: string, status = 400): ApiError {
  return new ApiError(status, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    doc_url: 'https://stripe.com/docs/error-codes/resource-missing',
    message: `No such ${object}: '${id}'`,
    param,
  });
}

// ---------------------------------------------------------------------------------------------
// Parameters: bracket notation into nested objects, checked and coerced against a spec

type Raw = string | RawObject;
interface RawObject {
  [key: string]: Raw;
}
type Value = string | number | boolean | null | Value[] | { [key: string]: Value };
type Rule = 'string' | 'integer' | 'boolean' | 'metadata' | 'any' | readonly string[] | ArrayRule | Spec;
interface ArrayRule {
  readonly $array: Rule;
}
interface Spec {
  readonly [key: string]: Rule;
}

/** `a[b][0][c]=x&a[d][]=y` into `{ a: { b: { 0: { c: 'x' } }, d: { 0: 'y' } } }` (arrays stay objects until checked). */
export function parseForm(text: string): RawObject {
  const root: RawObject = Object.create(null);
  for (const [key, value] of new URLSearchParams(text)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    const path = match
      ? [match[1] ?? key, ...[...(match[2] ?? '').matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] ?? '')]
      : [key];
    let node = root;
    for (let i = 0; i < path.length; i++) {
      let name = path[i] ?? '';
      if (name === '') name = String(Object.keys(node).length);
      if (i === path.length - 1) {
        node[name] = value;
        break;
      }
      const next = node[name];
      if (typeof next === 'object') {
        node = next;
      } else {
        const created: RawObject = Object.create(null);
        node[name] = created;
        node = created;
      }
    }
  }
  return root;
}

function plain(raw: Raw): Value {
  if (typeof raw === 'string') return raw;
  const out: Record<string, Value> = {};
  for (const [key, value] of Object.entries(raw)) out[key] = plain(value);
  return out;
}

function isArrayRule(rule: Rule): rule is ArrayRule {
  return typeof rule === 'object' && !Array.isArray(rule) && '$array' in rule;
}

function check(raw: Raw | undefined, rule: Rule, name: string): Value | undefined {
  if (raw === undefined) return undefined;
  if (rule === 'any') return plain(raw);
  if (rule === 'metadata') {
    if (raw === '') return {};
    if (typeof raw === 'string') throw invalid(`Invalid object`, name);
    const entries = Object.entries(raw);
    if (entries.length > 50) throw invalid(`Invalid ${name}: metadata can have at most 50 keys`, name);
    const out: Record<string, Value> = {};
    for (const [key, value] of entries) {
      if (typeof value !== 'string') throw invalid(`Invalid string: ${name}[${key}]`, `${name}[${key}]`);
      if (key.length > 40) throw invalid(`Metadata keys can have up to 40 characters`, `${name}[${key}]`);
      if (value.length > 500) throw invalid(`Metadata values can have up to 500 characters`, `${name}[${key}]`);
      out[key] = value === '' ? null : value;
    }
    return out;
  }
  if (typeof rule === 'string' || Array.isArray(rule)) {
    if (typeof raw !== 'string') throw invalid(`Invalid ${name}: expected a single value`, name);
    if (raw === '') return null;
    if (Array.isArray(rule)) {
      if (!rule.includes(raw)) {
        const options = rule.length > 1 ? `${rule.slice(0, -1).join(', ')}, or ${rule.at(-1)}` : rule.join('');
        throw invalid(`Invalid ${name}: must be one of ${options}`, name);
      }
      return raw;
    }
    if (rule === 'integer') {
      if (!/^-?\d+$/.test(raw)) throw invalid(`Invalid integer: ${raw}`, name, 'parameter_invalid_integer');
      return Number(raw);
    }
    if (rule === 'boolean') {
      if (raw !== 'true' && raw !== 'false') throw invalid(`Invalid boolean: ${raw}`, name);
      return raw === 'true';
    }
    return raw;
  }
  if (isArrayRule(rule)) {
    if (typeof raw === 'string') {
      if (raw === '') return [];
      throw invalid(`Invalid array`, name);
    }
    const keys = Object.keys(raw);
    if (keys.some((key) => !/^\d+$/.test(key))) throw invalid(`Invalid array`, name);
    return keys
      .sort((a, b) => Number(a) - Number(b))
      .map((key) => check(raw[key], rule.$array, `${name}[${key}]`) ?? null);
  }
  if (typeof raw === 'string') {
    if (raw === '') return null;
    throw invalid(`Invalid object`, name);
  }
  const out: Record<string, Value> = {};
  for (const [key, value] of Object.entries(raw)) {
    const inner = name ? `${name}[${key}]` : key;
    const sub = (rule as Spec)[key];
    if (sub === undefined) throw invalid(`Received unknown parameter: ${inner}`, inner, 'parameter_unknown');
    const checked = check(value, sub, inner);
    if (checked !== undefined) out[key] = checked;
  }
  return out;
}

/** Checked parameters, read by name; errors name the full bracketed parameter. */
class Params {
  constructor(
    readonly values: Record<string, Value>,
    private readonly prefix = '',
  ) {}
  name(key: string): string {
    return this.prefix ? `${this.prefix}[${key}]` : key;
  }
  has(key: string): boolean {
    return this.values[key] !== undefined && this.values[key] !== null;
  }
  str(key: string): string | null {
    const value = this.values[key];
    return typeof value === 'string' ? value : null;
  }
  int(key: string): number | null {
    const value = this.values[key];
    return typeof value === 'number' ? value : null;
  }
  bool(key: string): boolean | null {
    const value = this.values[key];
    return typeof value === 'boolean' ? value : null;
  }
  obj(key: string): Params | null {
    const value = this.values[key];
    return value && typeof value === 'object' && !Array.isArray(value) ? new Params(value, this.name(key)) : null;
  }
  list(key: string): Value[] {
    const value = this.values[key];
    return Array.isArray(value) ? value : [];
  }
  strings(key: string): string[] {
    return this.list(key).filter((value): value is string => typeof value === 'string');
  }
  /** Metadata as given: null values are keys to unset. */
  meta(key = 'metadata'): Record<string, string | null> | null {
    const value = this.values[key];
    if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
    return value as Record<string, string | null>;
  }
  needStr(key: string): string {
    const value = this.str(key);
    if (value === null)
      throw invalid(`Missing required param: ${this.name(key)}.`, this.name(key), 'parameter_missing');
    return value;
  }
  needInt(key: string): number {
    const value = this.int(key);
    if (value === null)
      throw invalid(`Missing required param: ${this.name(key)}.`, this.name(key), 'parameter_missing');
    return value;
  }
}

function applyMetadata(target: Stripe.Metadata, changes: Record<string, string | null> | null): Stripe.Metadata {
  if (!changes) return target;
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete target[key];
    else target[key] = value;
  }
  return target;
}

const EXPAND: ArrayRule = { $array: 'string' };
/** Parameters Stripe takes that the stand-in accepts and does nothing with (space-separated names). */
const ignored = (...groups: string[]): Spec =>
  Object.fromEntries(groups.flatMap((group) => group.split(/\s+/)).map((name) => [name, 'any' as const]));
const TRANSFER_DATA: Spec = { amount: 'integer', destination: 'string' };
const CAPTURE_METHODS = ['automatic', 'automatic_async', 'manual'] as const;
const FUTURE_USAGE = ['off_session', 'on_session'] as const;

const SPECS = {
  retrieve: { expand: EXPAND },
  accountCreate: {
    type: ['custom', 'express', 'standard', 'none'],
    country: 'string',
    email: 'string',
    business_type: ['company', 'government_entity', 'individual', 'non_profit'],
    default_currency: 'string',
    metadata: 'metadata',
    expand: EXPAND,
    ...ignored(
      'account_token business_profile capabilities company controller documents external_account',
      'groups individual settings tos_acceptance',
    ),
  },
  accountUpdate: {
    email: 'string',
    business_type: ['company', 'government_entity', 'individual', 'non_profit'],
    metadata: 'metadata',
    expand: EXPAND,
    ...ignored(
      'account_token business_profile capabilities company default_currency documents',
      'external_account groups individual settings tos_acceptance',
    ),
  },
  accountLink: {
    account: 'string',
    type: ['account_onboarding', 'account_update'],
    refresh_url: 'string',
    return_url: 'string',
    expand: EXPAND,
    ...ignored('collect collection_options'),
  },
  customerCreate: {
    email: 'string',
    name: 'string',
    description: 'string',
    phone: 'string',
    metadata: 'metadata',
    expand: EXPAND,
    ...ignored(
      'address balance business_name cash_balance individual_name invoice_prefix invoice_settings',
      'next_invoice_sequence payment_method preferred_locales shipping source tax tax_exempt',
      'tax_id_data test_clock validate',
    ),
  },
  checkoutCreate: {
    mode: ['payment', 'setup', 'subscription'],
    line_items: {
      $array: {
        price: 'string',
        quantity: 'integer',
        price_data: {
          currency: 'string',
          unit_amount: 'integer',
          product: 'string',
          product_data: {
            name: 'string',
            description: 'string',
            metadata: 'metadata',
            ...ignored('images tax_code unit_label'),
          },
          ...ignored('recurring tax_behavior unit_amount_decimal'),
        },
        metadata: 'metadata',
        ...ignored('adjustable_quantity tax_rates'),
      },
    },
    currency: 'string',
    customer: 'string',
    customer_creation: ['always', 'if_required'],
    customer_email: 'string',
    payment_intent_data: {
      application_fee_amount: 'integer',
      capture_method: CAPTURE_METHODS,
      description: 'string',
      metadata: 'metadata',
      on_behalf_of: 'string',
      receipt_email: 'string',
      setup_future_usage: FUTURE_USAGE,
      statement_descriptor: 'string',
      statement_descriptor_suffix: 'string',
      transfer_data: TRANSFER_DATA,
      transfer_group: 'string',
      ...ignored('shipping'),
    },
    setup_intent_data: { description: 'string', metadata: 'metadata', on_behalf_of: 'string' },
    success_url: 'string',
    cancel_url: 'string',
    return_url: 'string',
    metadata: 'metadata',
    client_reference_id: 'string',
    expires_at: 'integer',
    locale: 'string',
    allowed_payment_method_types: { $array: 'string' },
    expand: EXPAND,
    ...ignored(
      'adaptive_pricing after_expiration allow_promotion_codes automatic_tax',
      'billing_address_collection branding_settings consent_collection custom_fields custom_text',
      'customer_account customer_update discounts excluded_payment_method_types',
      'integration_identifier invoice_creation managed_payments name_collection optional_items',
      'origin_context payment_method_collection payment_method_configuration payment_method_data',
      'payment_method_options permissions phone_number_collection redirect_on_completion',
      'saved_payment_method_options shipping_address_collection shipping_options submit_type',
      'subscription_data tax_id_collection ui_mode wallet_options',
    ),
  },
  paymentIntentCreate: {
    amount: 'integer',
    currency: 'string',
    customer: 'string',
    payment_method: 'string',
    off_session: 'any',
    confirm: 'boolean',
    capture_method: CAPTURE_METHODS,
    application_fee_amount: 'integer',
    transfer_data: TRANSFER_DATA,
    on_behalf_of: 'string',
    metadata: 'metadata',
    description: 'string',
    receipt_email: 'string',
    setup_future_usage: FUTURE_USAGE,
    statement_descriptor: 'string',
    statement_descriptor_suffix: 'string',
    transfer_group: 'string',
    error_on_requires_action: 'boolean',
    return_url: 'string',
    allowed_payment_method_types: { $array: 'string' },
    automatic_payment_methods: { enabled: 'boolean', allow_redirects: ['always', 'never'] },
    expand: EXPAND,
    ...ignored(
      'amount_details confirmation_method confirmation_token customer_account',
      'excluded_payment_method_types hooks mandate mandate_data payment_details',
      'payment_method_configuration payment_method_data payment_method_options radar_options',
      'shipping use_stripe_sdk',
    ),
  },
  paymentIntentConfirm: {
    payment_method: 'string',
    off_session: 'any',
    capture_method: CAPTURE_METHODS,
    setup_future_usage: FUTURE_USAGE,
    receipt_email: 'string',
    return_url: 'string',
    error_on_requires_action: 'boolean',
    expand: EXPAND,
    ...ignored(
      'allowed_payment_method_types amount_details amount_to_confirm confirmation_token',
      'excluded_payment_method_types hooks mandate mandate_data payment_details',
      'payment_method_data payment_method_options radar_options shipping use_stripe_sdk',
    ),
  },
  paymentIntentCapture: {
    amount_to_capture: 'integer',
    application_fee_amount: 'integer',
    metadata: 'metadata',
    final_capture: 'boolean',
    statement_descriptor: 'string',
    statement_descriptor_suffix: 'string',
    transfer_data: { amount: 'integer' },
    expand: EXPAND,
    ...ignored('amount_details hooks payment_details'),
  },
  paymentIntentCancel: {
    cancellation_reason: ['abandoned', 'duplicate', 'fraudulent', 'requested_by_customer'],
    expand: EXPAND,
  },
  refundCreate: {
    payment_intent: 'string',
    charge: 'string',
    amount: 'integer',
    reason: ['duplicate', 'fraudulent', 'requested_by_customer'],
    metadata: 'metadata',
    reverse_transfer: 'boolean',
    refund_application_fee: 'boolean',
    expand: EXPAND,
    ...ignored('currency customer instructions_email origin'),
  },
  transferCreate: {
    amount: 'integer',
    currency: 'string',
    destination: 'string',
    description: 'string',
    metadata: 'metadata',
    source_transaction: 'string',
    source_type: ['bank_account', 'card', 'fpx'],
    transfer_group: 'string',
    expand: EXPAND,
  },
  list: {
    limit: 'integer',
    starting_after: 'string',
    ending_before: 'string',
    created: 'any',
    type: 'string',
    types: { $array: 'string' },
    source: 'string',
    currency: 'string',
    payout: 'string',
    delivery_success: 'boolean',
    expand: EXPAND,
  },
} satisfies Record<string, Spec>;

// ---------------------------------------------------------------------------------------------
// Cards, events, injections

interface Decline {
  code: string;
  decline_code: string;
  message: string;
}
const DECLINED: Decline = {
  code: 'card_declined',
  decline_code: 'generic_decline',
  message: 'Your card was declined.',
};
const INSUFFICIENT: Decline = {
  code: 'card_declined',
  decline_code: 'insufficient_funds',
  message: 'Your card has insufficient funds.',
};
const AUTHENTICATION: Decline = {
  code: 'authentication_required',
  decline_code: 'authentication_required',
  message: 'Your card was declined. This transaction requires authentication.',
};
const CARDS: Record<
  string,
  { decline?: Decline; declineCharges?: boolean; authOffSession?: boolean; availableNow?: boolean }
> = {
  [TEST_CARDS.declined]: { decline: DECLINED },
  [TEST_CARDS.insufficientFunds]: { decline: INSUFFICIENT },
  [TEST_CARDS.authenticationRequired]: { authOffSession: true },
  [TEST_CARDS.declinesAfterAttaching]: { declineCharges: true },
  [TEST_CARDS.availableBalance]: { availableNow: true },
};

type EmittedType =
  | 'account.updated'
  | 'charge.refunded'
  | 'checkout.session.completed'
  | 'checkout.session.expired'
  | 'payment_intent.amount_capturable_updated'
  | 'payment_intent.canceled'
  | 'payment_intent.payment_failed'
  | 'payment_intent.succeeded'
  | 'refund.created'
  | 'setup_intent.setup_failed'
  | 'setup_intent.succeeded'
  | 'transfer.created';
type EventOf<T extends EmittedType> = Extract<Stripe.Event, { type: T }>;
type ObjectOf<T extends EmittedType> = EventOf<T>['data']['object'];

interface Injection {
  method: string | null;
  path: string | RegExp;
  failure: StandInFailure;
  remaining: number;
}

/** What a request (or a control call) did: its events, sent once it has answered. */
interface Ctx {
  requestId: string | null;
  idempotencyKey: string | null;
  events: Stripe.Event[];
  injection: Injection | null;
}

interface Answer {
  status: number;
  body: string;
  store: boolean;
}

interface Stored {
  fingerprint: string;
  status: number;
  body: string;
  requestId: string;
  created: number;
}

interface QueuedDelivery {
  event: Stripe.Event;
  attempt: number;
  redelivery: boolean;
  done?: (delivery: WebhookDelivery) => void;
}

interface SessionPlan {
  paymentIntentData: Params | null;
  setupIntentData: Params | null;
  lineItems: { name: string; quantity: number; unitAmount: number }[];
}

interface LinkPlan {
  refreshUrl: string;
  returnUrl: string;
  expiresAt: number;
}

function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonical(inner)}`).join(',')}}`;
}

function localUrl(url: string): URL {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname)) {
    throw new Error(`the Stripe stand-in posts webhooks to http://127.0.0.1 only, not ${url}`);
  }
  return parsed;
}

// ---------------------------------------------------------------------------------------------
// The stand-in

export class StripeStandIn {
  port = 0;
  url = '';
  readonly events: Stripe.Event[] = [];
  readonly deliveries: WebhookDelivery[] = [];
  readonly requests: LoggedRequest[] = [];

  private readonly state = {
    accounts: new Map<string, Stripe.Account>(),
    customers: new Map<string, Stripe.Customer>(),
    paymentMethods: new Map<string, Stripe.PaymentMethod>(),
    checkoutSessions: new Map<string, Stripe.Checkout.Session>(),
    paymentIntents: new Map<string, Stripe.PaymentIntent>(),
    setupIntents: new Map<string, Stripe.SetupIntent>(),
    charges: new Map<string, Stripe.Charge>(),
    refunds: new Map<string, Stripe.Refund>(),
    transfers: new Map<string, Stripe.Transfer>(),
    transferReversals: new Map<string, Stripe.TransferReversal>(),
    applicationFees: new Map<string, Stripe.ApplicationFee>(),
    feeRefunds: new Map<string, Stripe.FeeRefund>(),
    balanceTransactions: new Map<string, Stripe.BalanceTransaction>(),
  };
  /** Every object by id, for expansion. */
  private readonly byId = new Map<string, unknown>();
  private readonly eventsById = new Map<string, Stripe.Event>();
  /** Each event's payload as first made: every delivery of it sends these bytes. */
  private readonly payloads = new Map<string, string>();
  private readonly cardOf = new Map<string, string>();
  private readonly plans = new Map<string, SessionPlan>();
  private readonly sessionOfIntent = new Map<string, string>();
  private readonly links = new Map<string, LinkPlan>();
  private readonly authorizedAt = new Map<string, number>();
  private readonly usedWithoutCustomer = new Set<string>();
  private readonly idempotency = new Map<string, Stored>();
  private readonly injections: Injection[] = [];

  private webhook: { url: URL; secret: string } | null = null;
  private readonly queue: QueuedDelivery[] = [];
  private held: Stripe.Event[] | null = null;
  private pumping = false;
  private retrying = 0;
  private readonly timers = new Set<NodeJS.Timeout>();
  private idleWaiters: (() => void)[] = [];
  private offset = 0;
  private server: Server | null = null;

  private readonly clock: () => Date;
  private readonly apiKey: string | null;
  private readonly webhookRetries: number;
  private readonly webhookBackoffMs: number;
  private readonly webhookTimeoutMs: number;
  private readonly timeoutHoldMs: number;
  private readonly availableAfterDays: number;
  private readonly authorizationDays: number;
  private readonly fees: { percent: number; fixed: number };

  constructor(options: StripeStandInOptions = {}) {
    this.clock = options.now ?? (() => new Date());
    this.apiKey = options.apiKey ?? null;
    this.webhookRetries = options.webhookRetries ?? 3;
    this.webhookBackoffMs = options.webhookBackoffMs ?? 50;
    this.webhookTimeoutMs = options.webhookTimeoutMs ?? 5000;
    this.timeoutHoldMs = options.timeoutHoldMs ?? 5000;
    this.availableAfterDays = options.availableAfterDays ?? 7;
    this.authorizationDays = options.authorizationDays ?? 7;
    this.fees = { percent: options.fees?.percent ?? 0, fixed: options.fees?.fixed ?? 0 };
    if (options.webhookUrl) this.setWebhook(options.webhookUrl, options.webhookSecret ?? 'whsec_test_standin');
  }

  // -- state, read-only to tests -------------------------------------------------------------

  get accounts(): ReadonlyMap<string, Stripe.Account> {
    return this.state.accounts;
  }
  get customers(): ReadonlyMap<string, Stripe.Customer> {
    return this.state.customers;
  }
  get paymentMethods(): ReadonlyMap<string, Stripe.PaymentMethod> {
    return this.state.paymentMethods;
  }
  get checkoutSessions(): ReadonlyMap<string, Stripe.Checkout.Session> {
    return this.state.checkoutSessions;
  }
  get paymentIntents(): ReadonlyMap<string, Stripe.PaymentIntent> {
    return this.state.paymentIntents;
  }
  get setupIntents(): ReadonlyMap<string, Stripe.SetupIntent> {
    return this.state.setupIntents;
  }
  get charges(): ReadonlyMap<string, Stripe.Charge> {
    return this.state.charges;
  }
  get refunds(): ReadonlyMap<string, Stripe.Refund> {
    return this.state.refunds;
  }
  get transfers(): ReadonlyMap<string, Stripe.Transfer> {
    return this.state.transfers;
  }
  get transferReversals(): ReadonlyMap<string, Stripe.TransferReversal> {
    return this.state.transferReversals;
  }
  get applicationFees(): ReadonlyMap<string, Stripe.ApplicationFee> {
    return this.state.applicationFees;
  }
  get feeRefunds(): ReadonlyMap<string, Stripe.FeeRefund> {
    return this.state.feeRefunds;
  }
  get balanceTransactions(): ReadonlyMap<string, Stripe.BalanceTransaction> {
    return this.state.balanceTransactions;
  }
  /** The secret deliveries are signed with (null while no webhook URL is set). */
  get webhookSecret(): string | null {
    return this.webhook?.secret ?? null;
  }

  /** The clock, in unix seconds. */
  now(): number {
    return Math.floor(this.clock().getTime() / 1000) + this.offset;
  }

  /** Moves the clock on (on top of `now`), then lets lapses and expiries happen. */
  advance(seconds: number): void {
    this.offset += seconds;
    this.sweep();
  }

  /** An official SDK client pointed at the stand-in. */
  client(config: Stripe.StripeConfig = {}): Stripe {
    return new Stripe(this.apiKey ?? 'sk_test_standin', {
      host: '127.0.0.1',
      port: this.port,
      protocol: 'http',
      ...config,
    });
  }

  // -- lifecycle -------------------------------------------------------------------------------

  async listen(): Promise<void> {
    const server = createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        console.error('stripe stand-in:', error);
        if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { type: 'api_error', message: 'The stand-in failed.' } }));
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const address = server.address();
    if (address === null || typeof address !== 'object') throw new Error('the Stripe stand-in has no port');
    this.server = server;
    this.port = address.port;
    this.url = `http://127.0.0.1:${address.port}`;
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.queue.length = 0;
    this.webhook = null;
    const server = this.server;
    this.server = null;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }

  // -- controls ----------------------------------------------------------------------------------

  setWebhook(url: string | null, secret = 'whsec_test_standin'): void {
    this.webhook = url === null ? null : { url: localUrl(url), secret };
  }

  /**
   * The next `times` requests matching `match` fail so: 'server_error' answers 500 api_error doing
   * nothing (not stored, so the SDK's retry with the same key does it); 'timeout' does it, stores
   * its idempotent answer, then holds the answer until the client gives up (or timeoutHoldMs) and
   * destroys the socket; 'card_declined' / 'authentication_required' decline the next charge
   * attempt of a matching request (a PaymentIntent confirm or a checkout payment); 'transfer_failed'
   * refuses a matching transfer with 400 balance_insufficient.
   */
  failNext(match: { method?: string; path: string | RegExp }, failure: StandInFailure, times = 1): void {
    this.injections.push({ method: match.method?.toUpperCase() ?? null, path: match.path, failure, remaining: times });
  }

  /** What the payer's browser does when it submits the hosted checkout page with this card. */
  async pay(
    sessionId: string,
    card: string = TEST_CARDS.success,
    details: { email?: string; name?: string } = {},
  ): Promise<PayResult> {
    const ctx = this.automatic();
    ctx.injection = this.match('POST', `/checkout/${sessionId}`, ['card_declined', 'authentication_required']);
    const result = this.payCheckout(ctx, sessionId, card, details);
    this.enqueue(ctx.events);
    return result;
  }

  /** What the payee does at the end of the onboarding an account link leads to. */
  completeOnboarding(accountId: string): Stripe.Account {
    const account = this.state.accounts.get(accountId);
    if (!account) throw new Error(`no account ${accountId}`);
    const ctx = this.automatic();
    this.onboard(ctx, account);
    this.enqueue(ctx.events);
    return structuredClone(account);
  }

  /** An authorisation that expired (7 days): requires_capture -> canceled, reason 'automatic'. */
  lapse(paymentIntentId: string): Stripe.PaymentIntent {
    const intent = this.state.paymentIntents.get(paymentIntentId);
    if (!intent) throw new Error(`no PaymentIntent ${paymentIntentId}`);
    if (intent.status !== 'requires_capture')
      throw new Error(`${paymentIntentId} is ${intent.status}, not requires_capture`);
    const ctx = this.automatic();
    this.cancelIntent(ctx, intent, 'automatic');
    this.enqueue(ctx.events);
    return structuredClone(intent);
  }

  /** Lets time-based changes happen: expired sessions, lapsed authorisations, available funds. */
  sweep(): void {
    const now = this.now();
    const ctx = this.automatic();
    for (const session of this.state.checkoutSessions.values()) {
      if (session.status === 'open' && session.expires_at <= now) this.expireSession(ctx, session);
    }
    for (const [id, at] of this.authorizedAt) {
      const intent = this.state.paymentIntents.get(id);
      if (intent?.status === 'requires_capture' && at + this.authorizationDays * DAY <= now) {
        this.cancelIntent(ctx, intent, 'automatic');
      }
    }
    for (const txn of this.state.balanceTransactions.values()) {
      if (txn.status === 'pending' && txn.available_on <= now) txn.status = 'available';
    }
    this.enqueue(ctx.events);
  }

  /** Events from now on are kept back until releaseWebhooks(). */
  holdWebhooks(): void {
    this.held ??= [];
  }

  /** Sends the held events, in the order they happened or the reverse; resolves after their first attempts. */
  async releaseWebhooks(options: { order?: 'sent' | 'reverse' } = {}): Promise<void> {
    const held = this.held ?? [];
    this.held = null;
    if (options.order === 'reverse') held.reverse();
    await Promise.all(
      held.map((event) => new Promise((done) => this.push({ event, attempt: 1, redelivery: false, done }))),
    );
  }

  /** A second delivery of an event (as Stripe may do); resolves with it. */
  async redeliver(eventId: string): Promise<WebhookDelivery> {
    const event = this.eventsById.get(eventId);
    if (!event) throw new Error(`no event ${eventId}`);
    if (!this.webhook) throw new Error('no webhook URL is set');
    return new Promise((done) => this.push({ event, attempt: 1, redelivery: true, done }));
  }

  /** Resolves when every queued delivery and retry is done (held events aside). */
  async settle(): Promise<void> {
    if (this.idle()) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  // -- HTTP --------------------------------------------------------------------------------------

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const checkout = /^\/checkout\/(cs_\w+)$/.exec(url.pathname);
    const onboarding = /^\/connect\/onboarding\/(acct_\w+)$/.exec(url.pathname);
    if (url.pathname.startsWith('/v1/')) this.api(request, response, url, body);
    else if (checkout?.[1]) this.checkoutPage(request, response, checkout[1], body);
    else if (onboarding?.[1]) this.onboardingPage(request, response, onboarding[1]);
    else response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  }

  private api(request: IncomingMessage, response: ServerResponse, url: URL, body: string) {
    this.sweep();
    const method = request.method ?? 'GET';
    const path = url.pathname;
    const requestId = newId('req', 14);
    const keyHeader = request.headers['idempotency-key'];
    const key = method === 'POST' && typeof keyHeader === 'string' && keyHeader !== '' ? keyHeader : null;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'request-id': requestId,
      'stripe-version': String(request.headers['stripe-version'] ?? STRIPE_API_VERSION),
      ...(key ? { 'idempotency-key': key } : {}),
    };
    const raw = parseForm(method === 'POST' ? body : url.search.slice(1));
    const logged: LoggedRequest = {
      method,
      path,
      idempotencyKey: key,
      params: plain(raw) as Record<string, unknown>,
      status: 0,
      replayed: false,
      injected: null,
    };
    this.requests.push(logged);
    const send = (answer: { status: number; body: string }, extra: Record<string, string> = {}) => {
      logged.status = answer.status;
      response.writeHead(answer.status, { ...headers, ...extra }).end(answer.body);
    };

    const refused = this.authenticate(request);
    if (refused) return send(refused);
    if (request.headers['stripe-account']) {
      return send(this.errorAnswer(invalid('The Stripe stand-in does not model the Stripe-Account header.')));
    }

    const generic = this.match(method, path, ['server_error', 'timeout']);
    if (generic?.failure === 'server_error') {
      this.consume(generic);
      logged.injected = 'server_error';
      return send({
        status: 500,
        body: JSON.stringify({ error: { type: 'api_error', message: 'An unknown error occurred' } }),
      });
    }

    const ctx: Ctx = {
      requestId,
      idempotencyKey: key,
      events: [],
      injection: this.match(method, path, ['card_declined', 'authentication_required', 'transfer_failed']),
    };
    const fingerprint = `${method} ${path} ${canonical(logged.params)}`;
    const stored = key ? this.idempotency.get(key) : undefined;
    let answer: Answer;
    const extra: Record<string, string> = {};
    if (stored && stored.created + DAY > this.now()) {
      if (stored.fingerprint === fingerprint) {
        answer = { status: stored.status, body: stored.body, store: false };
        extra['idempotent-replayed'] = 'true';
        extra['original-request'] = stored.requestId;
        logged.replayed = true;
      } else {
        answer = this.errorAnswer(
          new ApiError(400, {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
          }),
        );
      }
    } else {
      answer = this.dispatch(ctx, method, path, raw);
      if (key && answer.store) {
        this.idempotency.set(key, {
          fingerprint,
          status: answer.status,
          body: answer.body,
          requestId,
          created: this.now(),
        });
      }
    }
    if (ctx.injection && ctx.injection.remaining < 0) logged.injected = ctx.injection.failure;

    if (generic?.failure === 'timeout') {
      this.consume(generic);
      logged.injected = 'timeout';
      logged.status = answer.status;
      const socket = request.socket;
      const timer = setTimeout(() => socket.destroy(), this.timeoutHoldMs);
      this.timers.add(timer);
      socket.once('close', () => {
        clearTimeout(timer);
        this.timers.delete(timer);
      });
      this.enqueue(ctx.events);
      return;
    }
    response.once('finish', () => this.enqueue(ctx.events));
    send(answer, extra);
  }

  private authenticate(request: IncomingMessage): Answer | null {
    const header = request.headers.authorization ?? '';
    let key: string | null = null;
    if (header.startsWith('Bearer ')) key = header.slice(7).trim();
    else if (header.startsWith('Basic '))
      key = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':')[0] ?? null;
    if (!key) {
      return {
        status: 401,
        store: false,
        body: JSON.stringify({
          error: {
            type: 'invalid_request_error',
            message:
              "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
          },
        }),
      };
    }
    if (this.apiKey ? key !== this.apiKey : !key.startsWith('sk_test_')) {
      return {
        status: 401,
        store: false,
        body: JSON.stringify({
          error: {
            type: 'invalid_request_error',
            code: 'api_key_invalid',
            message: `Invalid API Key provided: ${key.slice(0, 8)}****${key.slice(-4)}`,
          },
        }),
      };
    }
    return null;
  }

  private errorAnswer(error: ApiError): Answer {
    return {
      status: error.status,
      body: JSON.stringify({ error: error.body }, null, 2),
      // What an endpoint began to run is stored (a declined card, a PaymentIntent in the wrong state);
      // a request refused for its parameters is not: it may be corrected and sent again with the key.
      store: error.body.type === 'card_error' || STATE_ERRORS.has(error.body.code ?? ''),
    };
  }

  private dispatch(ctx: Ctx, method: string, path: string, raw: RawObject): Answer {
    try {
      const [spec, run] = this.route(method, path);
      const params = new Params((check(raw, spec, '') ?? {}) as Record<string, Value>);
      const result = run(ctx, params);
      const body = this.expand(result, params.strings('expand'));
      return { status: 200, body: JSON.stringify(body, null, 2), store: true };
    } catch (error) {
      if (error instanceof ApiError) return this.errorAnswer(error);
      throw error;
    }
  }

  private found<T>(map: ReadonlyMap<string, T>, object: string, id: string): T {
    const value = map.get(id);
    if (value === undefined) throw noSuch(object, id, 'id', 404);
    return value;
  }

  /** The endpoints: method, path (its group 1 the id), the parameters it takes, and what it does. */
  private readonly routes: [string, RegExp, Spec, (ctx: Ctx, params: Params, id: string) => unknown][] = [
    ['POST', /^\/v1\/accounts$/, SPECS.accountCreate, (_c, p) => this.createAccount(p)],
    [
      'POST',
      /^\/v1\/accounts\/([^/]+)$/,
      SPECS.accountUpdate,
      (c, p, id) => this.updateAccount(c, this.found(this.state.accounts, 'account', id), p),
    ],
    ['POST', /^\/v1\/account_links$/, SPECS.accountLink, (_c, p) => this.createAccountLink(p)],
    ['POST', /^\/v1\/customers$/, SPECS.customerCreate, (_c, p) => this.createCustomer(p)],
    ['POST', /^\/v1\/checkout\/sessions$/, SPECS.checkoutCreate, (_c, p) => this.createSession(p)],
    [
      'POST',
      /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/,
      SPECS.retrieve,
      (c, _p, id) => this.expireByApi(c, this.found(this.state.checkoutSessions, 'checkout.session', id)),
    ],
    ['POST', /^\/v1\/payment_intents$/, SPECS.paymentIntentCreate, (c, p) => this.createIntent(c, p)],
    [
      'POST',
      /^\/v1\/payment_intents\/([^/]+)\/capture$/,
      SPECS.paymentIntentCapture,
      (c, p, id) => this.capture(c, this.found(this.state.paymentIntents, 'payment_intent', id), p),
    ],
    [
      'POST',
      /^\/v1\/payment_intents\/([^/]+)\/cancel$/,
      SPECS.paymentIntentCancel,
      (c, p, id) => this.cancelByApi(c, this.found(this.state.paymentIntents, 'payment_intent', id), p),
    ],
    [
      'POST',
      /^\/v1\/payment_intents\/([^/]+)\/confirm$/,
      SPECS.paymentIntentConfirm,
      (c, p, id) => this.confirmByApi(c, this.found(this.state.paymentIntents, 'payment_intent', id), p),
    ],
    ['POST', /^\/v1\/refunds$/, SPECS.refundCreate, (c, p) => this.createRefund(c, p)],
    ['POST', /^\/v1\/transfers$/, SPECS.transferCreate, (c, p) => this.createTransfer(c, p)],
    [
      'GET',
      /^\/v1\/accounts\/([^/]+)$/,
      SPECS.retrieve,
      (_c, _p, id) => this.found(this.state.accounts, 'account', id),
    ],
    [
      'GET',
      /^\/v1\/customers\/([^/]+)$/,
      SPECS.retrieve,
      (_c, _p, id) => this.found(this.state.customers, 'customer', id),
    ],
    [
      'GET',
      /^\/v1\/payment_methods\/([^/]+)$/,
      SPECS.retrieve,
      (_c, _p, id) => this.found(this.state.paymentMethods, 'payment_method', id),
    ],
    [
      'GET',
      /^\/v1\/checkout\/sessions\/([^/]+)$/,
      SPECS.retrieve,
      (_c, _p, id) => this.found(this.state.checkoutSessions, 'checkout.session', id),
    ],
    [
      'GET',
      /^\/v1\/payment_intents\/([^/]+)$/,
      SPECS.retrieve,
      (_c, _p, id) => this.found(this.state.paymentIntents, 'payment_intent', id),
    ],
    [
      'GET',
      /^\/v1\/setup_intents\/([^/]+)$/,
      SPECS.retrieve,
      (_c, _p, id) => this.found(this.state.setupIntents, 'setup_intent', id),
    ],
    ['GET', /^\/v1\/charges\/([^/]+)$/, SPECS.retrieve, (_c, _p, id) => this.found(this.state.charges, 'charge', id)],
    ['GET', /^\/v1\/refunds\/([^/]+)$/, SPECS.retrieve, (_c, _p, id) => this.found(this.state.refunds, 'refund', id)],
    [
      'GET',
      /^\/v1\/transfers\/([^/]+)$/,
      SPECS.retrieve,
      (_c, _p, id) => this.found(this.state.transfers, 'transfer', id),
    ],
    [
      'GET',
      /^\/v1\/application_fees\/([^/]+)$/,
      SPECS.retrieve,
      (_c, _p, id) => this.found(this.state.applicationFees, 'application_fee', id),
    ],
    ['GET', /^\/v1\/balance$/, SPECS.retrieve, () => this.balance()],
    [
      'GET',
      /^\/v1\/balance_transactions$/,
      SPECS.list,
      (_c, p) =>
        this.list([...this.state.balanceTransactions.values()], p, '/v1/balance_transactions', (txn) =>
          this.balanceFilter(txn, p),
        ),
    ],
    [
      'GET',
      /^\/v1\/balance_transactions\/([^/]+)$/,
      SPECS.retrieve,
      (_c, _p, id) => this.found(this.state.balanceTransactions, 'balance_transaction', id),
    ],
    [
      'GET',
      /^\/v1\/events$/,
      SPECS.list,
      (_c, p) => this.list(this.events, p, '/v1/events', (e) => this.eventFilter(e, p)),
    ],
    ['GET', /^\/v1\/events\/([^/]+)$/, SPECS.retrieve, (_c, _p, id) => this.found(this.eventsById, 'event', id)],
  ];

  private route(method: string, path: string): [Spec, (ctx: Ctx, params: Params) => unknown] {
    for (const [verb, pattern, spec, run] of this.routes) {
      const match = verb === method ? pattern.exec(path) : null;
      if (match) return [spec, (ctx, params) => run(ctx, params, match[1] ?? '')];
    }
    throw new ApiError(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
    });
  }

  private eventFilter(event: Stripe.Event, params: Params): boolean {
    const types = params.strings('types');
    const type = params.str('type');
    if (types.length > 0 && !types.includes(event.type)) return false;
    if (type && !new RegExp(`^${type.replace(/\./g, '\\.').replace(/\*/g, '.*')}$`).test(event.type)) return false;
    return true;
  }

  /** Replaces the ids at the dotted paths with the objects (`data.` for each item of a list). */
  private expand(result: unknown, paths: string[]): unknown {
    const copy = structuredClone(result);
    const walk = (node: unknown, parts: string[]): unknown => {
      if (parts.length === 0 || node === null || typeof node !== 'object') return node;
      const [head = '', ...rest] = parts;
      const record = node as Record<string, unknown>;
      if (head === 'data' && Array.isArray(record.data)) {
        record.data = record.data.map((item) => walk(item, rest));
        return node;
      }
      let value = record[head];
      if (typeof value === 'string' && this.byId.has(value)) value = structuredClone(this.byId.get(value));
      record[head] = walk(value, rest);
      return node;
    };
    let out = copy;
    for (const path of paths) out = walk(out, path.split('.'));
    return out;
  }

  private list<T extends { id?: string; created: number }>(
    items: T[],
    params: Params,
    url: string,
    keep: (item: T) => boolean = () => true,
  ): { object: 'list'; data: T[]; has_more: boolean; url: string } {
    const limit = params.int('limit') ?? 10;
    if (limit < 1 || limit > 100) throw invalid('Invalid limit: must be an integer between 1 and 100', 'limit');
    const created = params.values.created;
    const range = (value: number) => {
      if (created === undefined || created === null) return true;
      if (typeof created === 'string') return value === Number(created);
      if (typeof created !== 'object' || Array.isArray(created)) return true;
      for (const [op, bound] of Object.entries(created)) {
        const n = Number(bound);
        if (!['gt', 'gte', 'lt', 'lte'].includes(op)) {
          throw invalid(`Received unknown parameter: created[${op}]`, `created[${op}]`, 'parameter_unknown');
        }
        if (!Number.isInteger(n))
          throw invalid(`Invalid integer: ${String(bound)}`, `created[${op}]`, 'parameter_invalid_integer');
        if ((op === 'gt' && !(value > n)) || (op === 'gte' && !(value >= n))) return false;
        if ((op === 'lt' && !(value < n)) || (op === 'lte' && !(value <= n))) return false;
      }
      return true;
    };
    // Newest first; of the same second, the later made first.
    let all = items
      .map((item, index) => ({ item, index }))
      .sort((a, b) => b.item.created - a.item.created || b.index - a.index)
      .map(({ item }) => item)
      .filter((item) => range(item.created) && keep(item));
    const after = params.str('starting_after');
    const before = params.str('ending_before');
    if (after) {
      const at = all.findIndex((item) => item.id === after);
      if (at === -1) throw noSuch('object', after, 'starting_after');
      all = all.slice(at + 1);
    }
    if (before) {
      const at = all.findIndex((item) => item.id === before);
      if (at === -1) throw noSuch('object', before, 'ending_before');
      all = all.slice(Math.max(0, at - limit), at);
      return { object: 'list', data: structuredClone(all), has_more: at - limit > 0, url };
    }
    return { object: 'list', data: structuredClone(all.slice(0, limit)), has_more: all.length > limit, url };
  }

  private balanceFilter(txn: Stripe.BalanceTransaction, params: Params): boolean {
    const type = params.str('type');
    const source = params.str('source');
    const currency = params.str('currency');
    if (type && txn.type !== type) return false;
    if (source && txn.source !== source) return false;
    if (currency && txn.currency !== currency.toLowerCase()) return false;
    return true;
  }

  // -- injections --------------------------------------------------------------------------------

  private match(method: string, path: string, kinds: StandInFailure[]): Injection | null {
    for (const injection of this.injections) {
      if (injection.remaining <= 0 || !kinds.includes(injection.failure)) continue;
      if (injection.method && injection.method !== method.toUpperCase()) continue;
      if (typeof injection.path === 'string' ? injection.path === path : injection.path.test(path)) return injection;
    }
    return null;
  }

  private consume(injection: Injection): void {
    injection.remaining--;
    const at = this.injections.indexOf(injection);
    if (injection.remaining <= 0 && at !== -1) this.injections.splice(at, 1);
  }

  /** The request's injected failure of these kinds, used up by this call. */
  private injected(ctx: Ctx, kinds: StandInFailure[]): StandInFailure | null {
    const injection = ctx.injection;
    if (!injection || !kinds.includes(injection.failure) || injection.remaining <= 0) return null;
    this.consume(injection);
    ctx.injection = { ...injection, remaining: -1 };
    return injection.failure;
  }

  private automatic(): Ctx {
    return { requestId: null, idempotencyKey: null, events: [], injection: null };
  }

  // -- objects -----------------------------------------------------------------------------------

  private put<T extends { id: string }>(map: Map<string, T>, object: T): T {
    map.set(object.id, object);
    this.byId.set(object.id, object);
    return object;
  }

  private emit<T extends EmittedType>(ctx: Ctx, type: T, object: ObjectOf<T>, previous?: Partial<ObjectOf<T>>): void {
    const event = {
      ...base('event'),
      id: newId('evt'),
      object: 'event',
      api_version: STRIPE_API_VERSION,
      created: this.now(),
      data: {
        object: structuredClone(object),
        ...(previous ? { previous_attributes: structuredClone(previous) } : {}),
      },
      livemode: false,
      pending_webhooks: this.webhook ? 1 : 0,
      request: { id: ctx.requestId, idempotency_key: ctx.idempotencyKey },
      type,
    } as Stripe.Event;
    this.events.push(event);
    this.eventsById.set(event.id, event);
    this.payloads.set(event.id, JSON.stringify(event, null, 2));
    ctx.events.push(event);
  }

  private account(id: string, param: string): Stripe.Account {
    const account = this.state.accounts.get(id);
    if (!account) throw noSuch('account', id, param);
    return account;
  }

  /** A destination must be able to receive transfers (onboarded). */
  private destination(id: string, param: string): Stripe.Account {
    const account = this.account(id, param);
    if (account.capabilities?.transfers !== 'active') {
      throw invalid(
        'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
        param,
        'insufficient_capabilities_for_transfer',
      );
    }
    return account;
  }

  // Accounts

  private createAccount(p: Params): Stripe.Account {
    const id = newId('acct', 16);
    const country = (p.str('country') ?? 'DE').toUpperCase();
    const requested = p.values.capabilities;
    const capabilities: Record<string, string> = {};
    if (requested && typeof requested === 'object' && !Array.isArray(requested)) {
      for (const [name, value] of Object.entries(requested)) {
        if (value && typeof value === 'object' && !Array.isArray(value) && value.requested === 'true') {
          capabilities[name] = 'inactive';
        }
      }
    }
    const currentlyDue = ['business_type', 'external_account', 'tos_acceptance.date', 'tos_acceptance.ip'];
    const type = (p.str('type') ?? 'standard') as Stripe.Account.Type;
    const account: Stripe.Account = {
      ...base('account'),
      id,
      object: 'account',
      type,
      country,
      email: p.str('email'),
      created: this.now(),
      default_currency: p.str('default_currency') ?? CURRENCY_OF_COUNTRY[country] ?? 'eur',
      business_type: (p.str('business_type') as Stripe.Account.BusinessType | null) ?? null,
      capabilities: capabilities as Stripe.Account.Capabilities,
      charges_enabled: false,
      payouts_enabled: false,
      details_submitted: false,
      controller:
        type === 'express'
          ? {
              fees: { payer: 'application' },
              is_controller: true,
              losses: { payments: 'application' },
              requirement_collection: 'stripe',
              stripe_dashboard: { type: 'express' },
              type: 'application',
            }
          : { type: 'account' },
      metadata: applyMetadata({}, p.meta()),
      requirements: {
        alternatives: [],
        current_deadline: null,
        currently_due: [...currentlyDue],
        disabled_reason: 'requirements.past_due',
        errors: [],
        eventually_due: [...currentlyDue],
        past_due: [...currentlyDue],
        pending_verification: [],
      },
      future_requirements: {
        alternatives: [],
        current_deadline: null,
        currently_due: [],
        disabled_reason: null,
        errors: [],
        eventually_due: [],
        past_due: [],
        pending_verification: [],
      },
      tos_acceptance: { date: null, ip: null, user_agent: null },
      external_accounts: { object: 'list', data: [], has_more: false, url: `/v1/accounts/${id}/external_accounts` },
    };
    return this.put(this.state.accounts, account);
  }

  private updateAccount(ctx: Ctx, account: Stripe.Account, p: Params): Stripe.Account {
    const previous: Partial<Stripe.Account> = {};
    if (p.has('email') && p.str('email') !== account.email) {
      previous.email = account.email;
      account.email = p.str('email');
    }
    if (p.has('business_type') && p.str('business_type') !== account.business_type) {
      previous.business_type = account.business_type;
      account.business_type = p.str('business_type') as Stripe.Account.BusinessType;
    }
    const metadata = p.meta();
    if (metadata) {
      previous.metadata = { ...account.metadata };
      applyMetadata(account.metadata ?? {}, metadata);
    }
    if (Object.keys(previous).length > 0) this.emit(ctx, 'account.updated', account, previous);
    return account;
  }

  private createAccountLink(p: Params): Stripe.AccountLink {
    const accountId = p.needStr('account');
    p.needStr('type');
    const refreshUrl = p.needStr('refresh_url');
    const returnUrl = p.needStr('return_url');
    this.account(accountId, 'account');
    const created = this.now();
    this.links.set(accountId, { refreshUrl, returnUrl, expiresAt: created + 300 });
    return {
      ...base('accountLink'),
      object: 'account_link',
      created,
      expires_at: created + 300,
      url: `${this.url}/connect/onboarding/${accountId}`,
    };
  }

  private onboard(ctx: Ctx, account: Stripe.Account): void {
    if (account.details_submitted && account.charges_enabled) return;
    const previous: Partial<Stripe.Account> = {
      business_type: account.business_type,
      capabilities: structuredClone(account.capabilities),
      charges_enabled: account.charges_enabled,
      details_submitted: account.details_submitted,
      payouts_enabled: account.payouts_enabled,
      requirements: structuredClone(account.requirements),
      tos_acceptance: structuredClone(account.tos_acceptance),
    };
    const capabilities: Record<string, string> = { ...(account.capabilities as Record<string, string>) };
    for (const name of Object.keys(capabilities)) capabilities[name] = 'active';
    if (Object.keys(capabilities).length === 0) {
      capabilities.card_payments = 'active';
      capabilities.transfers = 'active';
    }
    account.capabilities = capabilities as Stripe.Account.Capabilities;
    account.business_type ??= 'individual';
    account.charges_enabled = true;
    account.payouts_enabled = true;
    account.details_submitted = true;
    account.requirements = {
      alternatives: [],
      current_deadline: null,
      currently_due: [],
      disabled_reason: null,
      errors: [],
      eventually_due: [],
      past_due: [],
      pending_verification: [],
    };
    account.tos_acceptance = { date: this.now(), ip: '127.0.0.1', user_agent: 'stripe-stand-in' };
    this.emit(ctx, 'account.updated', account, previous);
  }

  // Customers and payment methods

  private createCustomer(p: Params, email: string | null = null, name: string | null = null): Stripe.Customer {
    const customer: Stripe.Customer = {
      ...base('customer'),
      id: newId('cus', 14),
      object: 'customer',
      address: null,
      balance: 0,
      created: this.now(),
      currency: null,
      default_source: null,
      delinquent: false,
      description: p.str('description'),
      discount: null,
      email: p.str('email') ?? email,
      invoice_prefix: random(8).toUpperCase(),
      invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
      livemode: false,
      metadata: applyMetadata({}, p.meta()),
      name: p.str('name') ?? name,
      phone: p.str('phone'),
      preferred_locales: [],
      shipping: null,
      tax_exempt: 'none',
      test_clock: null,
    };
    return this.put(this.state.customers, customer);
  }

  private createPaymentMethod(card: string, email: string | null, name: string | null): Stripe.PaymentMethod {
    const brand = brandOf(card);
    const year = new Date(this.now() * 1000).getUTCFullYear();
    const method: Stripe.PaymentMethod = {
      ...base('paymentMethod'),
      id: newId('pm'),
      object: 'payment_method',
      allow_redisplay: 'unspecified',
      billing_details: {
        address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null },
        email,
        name,
        phone: null,
        tax_id: null,
      },
      card: {
        brand,
        checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
        country: 'US',
        display_brand: brand,
        exp_month: 12,
        exp_year: year + 3,
        fingerprint: createHash('sha256').update(card).digest('base64url').slice(0, 16),
        funding: 'credit',
        generated_from: null,
        last4: card.slice(-4),
        networks: { available: [brand], preferred: null },
        regulated_status: 'unregulated',
        three_d_secure_usage: { supported: true },
        wallet: null,
      },
      created: this.now(),
      customer: null,
      livemode: false,
      metadata: {},
      type: 'card',
    };
    this.cardOf.set(method.id, card);
    return this.put(this.state.paymentMethods, method);
  }

  private attach(method: Stripe.PaymentMethod, customerId: string): void {
    method.customer = customerId;
  }

  // Checkout

  private createSession(p: Params): Stripe.Checkout.Session {
    const mode = p.needStr('mode');
    if (mode === 'subscription') throw invalid('The Stripe stand-in does not model subscription mode.', 'mode');
    const customerId = p.str('customer');
    if (customerId && !this.state.customers.has(customerId)) throw noSuch('customer', customerId, 'customer');
    if (customerId && p.has('customer_email')) {
      throw invalid('You may only specify one of these parameters: customer, customer_email.', 'customer_email');
    }
    if (customerId && p.has('customer_creation')) {
      throw invalid('You may only specify one of these parameters: customer, customer_creation.', 'customer_creation');
    }
    const now = this.now();
    const expiresAt = p.int('expires_at') ?? now + DAY;
    if (expiresAt < now + 1800) {
      throw invalid(
        'The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.',
        'expires_at',
      );
    }
    if (expiresAt > now + DAY) {
      throw invalid(
        'The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.',
        'expires_at',
      );
    }
    const intentData = p.obj('payment_intent_data');
    const setupData = p.obj('setup_intent_data');
    const lineItems: SessionPlan['lineItems'] = [];
    let currency: string | null = p.str('currency')?.toLowerCase() ?? null;
    if (mode === 'payment') {
      if (setupData) throw invalid('setup_intent_data can only be used in setup mode.', 'setup_intent_data');
      const items = p.list('line_items');
      if (items.length === 0) {
        throw invalid('line_items is required in payment mode.', 'line_items', 'parameter_missing');
      }
      items.forEach((value, index) => {
        const item = new Params((value ?? {}) as Record<string, Value>, `line_items[${index}]`);
        const price = item.str('price');
        if (price) throw noSuch('price', price, item.name('price'));
        const priceData = item.obj('price_data');
        if (!priceData)
          throw invalid(
            `Missing required param: ${item.name('price_data')}.`,
            item.name('price_data'),
            'parameter_missing',
          );
        const itemCurrency = priceData.needStr('currency').toLowerCase();
        if (currency && currency !== itemCurrency) {
          throw invalid('All line_items must have the same currency.', priceData.name('currency'));
        }
        currency = itemCurrency;
        const unitAmount = priceData.needInt('unit_amount');
        if (unitAmount < 0) throw invalid('Invalid non-negative integer', priceData.name('unit_amount'));
        const product = priceData.obj('product_data');
        if (!product) {
          throw invalid(
            `Missing required param: ${priceData.name('product_data')}.`,
            priceData.name('product_data'),
            'parameter_missing',
          );
        }
        const quantity = item.needInt('quantity');
        if (quantity < 1) throw invalid('Invalid positive integer', item.name('quantity'));
        lineItems.push({ name: product.needStr('name'), quantity, unitAmount });
      });
      const total = lineItems.reduce((sum, item) => sum + item.unitAmount * item.quantity, 0);
      if (total < MINIMUM_CHARGE) {
        throw invalid(
          `The Checkout Session's total amount due must add up to at least ${money(MINIMUM_CHARGE, currency ?? 'eur')} ${currency}`,
          'line_items',
          'amount_too_small',
        );
      }
      if (intentData) this.checkConnect(intentData, total);
    } else {
      if (intentData) throw invalid('payment_intent_data can only be used in payment mode.', 'payment_intent_data');
      if (p.has('line_items')) throw invalid('line_items cannot be used in setup mode.', 'line_items');
      if (!currency && p.strings('allowed_payment_method_types').length === 0) {
        throw invalid(
          'currency is required in setup mode when allowed_payment_method_types is not set.',
          'currency',
          'parameter_missing',
        );
      }
      const onBehalfOf = setupData?.str('on_behalf_of');
      if (onBehalfOf) this.account(onBehalfOf, setupData?.name('on_behalf_of') ?? 'on_behalf_of');
    }
    const id = `cs_test_${random(58)}`;
    const total = mode === 'payment' ? lineItems.reduce((sum, item) => sum + item.unitAmount * item.quantity, 0) : null;
    const session: Stripe.Checkout.Session = {
      ...base('checkoutSession'),
      id,
      object: 'checkout.session',
      adaptive_pricing: { enabled: false },
      after_expiration: null,
      allow_promotion_codes: null,
      allowed_payment_method_types: null,
      amount_subtotal: total,
      amount_total: total,
      automatic_tax: { enabled: false, liability: null, provider: null, status: null },
      billing_address_collection: null,
      cancel_url: p.str('cancel_url'),
      client_reference_id: p.str('client_reference_id'),
      client_secret: null,
      collected_information: null,
      consent: null,
      consent_collection: null,
      created: now,
      currency,
      currency_conversion: null,
      custom_fields: [],
      custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
      customer: customerId,
      customer_account: null,
      customer_creation:
        mode === 'payment' ? ((p.str('customer_creation') ?? 'if_required') as 'always' | 'if_required') : null,
      customer_details: null,
      customer_email: p.str('customer_email'),
      discounts: [],
      expires_at: expiresAt,
      integration_identifier: null,
      invoice: null,
      invoice_creation:
        mode === 'payment'
          ? {
              enabled: false,
              invoice_data: {
                account_tax_ids: null,
                custom_fields: null,
                description: null,
                footer: null,
                issuer: null,
                metadata: {},
                rendering_options: null,
              },
            }
          : null,
      livemode: false,
      locale: (p.str('locale') as Stripe.Checkout.Session.Locale | null) ?? null,
      managed_payments: null,
      metadata: applyMetadata({}, p.meta()),
      mode: mode as Stripe.Checkout.Session.Mode,
      origin_context: null,
      payment_intent: null,
      payment_link: null,
      payment_method_collection: mode === 'setup' ? 'always' : null,
      payment_method_configuration_details: null,
      payment_method_options: {},
      payment_method_types: ['card'],
      payment_status: mode === 'setup' ? 'no_payment_required' : 'unpaid',
      permissions: null,
      phone_number_collection: { enabled: false },
      recovered_from: null,
      saved_payment_method_options: null,
      setup_intent: null,
      shipping_address_collection: null,
      shipping_cost: null,
      shipping_options: [],
      status: 'open',
      submit_type: null,
      subscription: null,
      success_url: p.str('success_url'),
      total_details: mode === 'payment' ? { amount_discount: 0, amount_shipping: 0, amount_tax: 0 } : null,
      ui_mode: 'hosted_page',
      url: `${this.url}/checkout/${id}`,
      wallet_options: null,
    };
    this.plans.set(id, { paymentIntentData: intentData, setupIntentData: setupData, lineItems });
    return this.put(this.state.checkoutSessions, session);
  }

  /** transfer_data, on_behalf_of and application_fee_amount as Stripe checks them on a destination charge. */
  private checkConnect(p: Params, amount: number): void {
    const transfer = p.obj('transfer_data');
    const destination = transfer?.str('destination') ?? null;
    if (transfer && !destination) {
      throw invalid(
        `Missing required param: ${transfer.name('destination')}.`,
        transfer.name('destination'),
        'parameter_missing',
      );
    }
    if (destination && transfer) this.destination(destination, transfer.name('destination'));
    const transferAmount = transfer?.int('amount');
    if (transferAmount !== null && transferAmount !== undefined && (transferAmount < 0 || transferAmount > amount)) {
      throw invalid('transfer_data[amount] must be less than or equal to the amount.', transfer?.name('amount'));
    }
    const onBehalfOf = p.str('on_behalf_of');
    if (onBehalfOf) this.account(onBehalfOf, p.name('on_behalf_of'));
    const fee = p.int('application_fee_amount');
    if (fee !== null) {
      if (!destination) {
        throw invalid(
          'Can only apply an application_fee_amount when the PaymentIntent is attempting a direct payment (using an OAuth key or Stripe-Account header) or destination payment (using `transfer_data[destination]`).',
          p.name('application_fee_amount'),
        );
      }
      if (fee < 0 || fee > amount) {
        throw invalid(
          'application_fee_amount must be less than or equal to the amount.',
          p.name('application_fee_amount'),
        );
      }
      if (transferAmount !== null && transferAmount !== undefined) {
        throw invalid(
          'You cannot set both application_fee_amount and transfer_data[amount].',
          p.name('application_fee_amount'),
        );
      }
    }
  }

  private expireByApi(ctx: Ctx, session: Stripe.Checkout.Session): Stripe.Checkout.Session {
    if (session.status !== 'open') {
      throw invalid(
        `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
      );
    }
    this.expireSession(ctx, session);
    return session;
  }

  private expireSession(ctx: Ctx, session: Stripe.Checkout.Session): void {
    session.status = 'expired';
    session.url = null;
    this.emit(ctx, 'checkout.session.expired', session);
  }

  private payCheckout(
    ctx: Ctx,
    sessionId: string,
    card: string,
    details: { email?: string; name?: string },
  ): PayResult {
    const session = this.state.checkoutSessions.get(sessionId);
    if (!session) throw new Error(`no Checkout Session ${sessionId}`);
    if (session.status === 'open' && session.expires_at <= this.now()) this.expireSession(ctx, session);
    const result = (status: number, error: PayResult['error'] = null): PayResult => ({
      ok: status === 303,
      status,
      location:
        status === 303 && session.success_url
          ? session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', session.id)
          : null,
      session: structuredClone(session),
      paymentIntent:
        typeof session.payment_intent === 'string'
          ? this.snapshot(this.state.paymentIntents, session.payment_intent)
          : null,
      setupIntent:
        typeof session.setup_intent === 'string' ? this.snapshot(this.state.setupIntents, session.setup_intent) : null,
      error,
    });
    if (session.status !== 'open') {
      return result(410, { code: 'session_not_open', message: `This Checkout Session is ${session.status}.` });
    }
    const number = card.replace(/[\s-]/g, '');
    if (!/^\d{12,19}$/.test(number) || !luhn(number)) {
      return result(400, { code: 'incorrect_number', message: 'Your card number is invalid.' });
    }
    const plan = this.plans.get(session.id) ?? { paymentIntentData: null, setupIntentData: null, lineItems: [] };
    const email = details.email ?? session.customer_email ?? null;
    const name = details.name ?? null;
    const method = this.createPaymentMethod(number, email, name);
    const customerFor = (): string => {
      if (typeof session.customer === 'string') return session.customer;
      return this.createCustomer(new Params({}), email, name).id;
    };
    const complete = () => {
      session.status = 'complete';
      session.url = null;
      session.customer_details = {
        address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null },
        business_name: null,
        email,
        individual_name: null,
        name,
        phone: null,
        tax_exempt: 'none',
        tax_ids: [],
      };
      this.emit(ctx, 'checkout.session.completed', session);
    };

    if (session.mode === 'setup') {
      const behaviour = CARDS[number];
      const setupData = plan.setupIntentData;
      let intent =
        typeof session.setup_intent === 'string' ? this.state.setupIntents.get(session.setup_intent) : undefined;
      if (!intent) {
        const id = newId('seti');
        const created: Stripe.SetupIntent = {
          ...base('setupIntent'),
          id,
          object: 'setup_intent',
          allowed_payment_method_types: null,
          application: null,
          automatic_payment_methods: null,
          cancellation_reason: null,
          client_secret: `${id}_secret_${random(24)}`,
          created: this.now(),
          customer: typeof session.customer === 'string' ? session.customer : null,
          description: setupData?.str('description') ?? null,
          excluded_payment_method_types: null,
          flow_directions: null,
          last_setup_error: null,
          latest_attempt: null,
          livemode: false,
          mandate: null,
          metadata: applyMetadata({}, setupData?.meta() ?? null),
          next_action: null,
          on_behalf_of: setupData?.str('on_behalf_of') ?? null,
          payment_method: null,
          payment_method_configuration_details: null,
          payment_method_options: {
            card: { mandate_options: null, network: null, request_three_d_secure: 'automatic' },
          },
          payment_method_types: ['card'],
          single_use_mandate: null,
          status: 'requires_payment_method',
          usage: 'off_session',
        };
        intent = this.put(this.state.setupIntents, created);
        session.setup_intent = intent.id;
      }
      intent.latest_attempt = newId('setatt');
      if (behaviour?.decline === DECLINED) {
        intent.status = 'requires_payment_method';
        intent.last_setup_error = {
          code: DECLINED.code,
          decline_code: DECLINED.decline_code,
          doc_url: 'https://stripe.com/docs/error-codes/card-declined',
          message: DECLINED.message,
          payment_method: structuredClone(method),
          type: 'card_error',
        };
        this.emit(ctx, 'setup_intent.setup_failed', intent);
        return result(402, { ...DECLINED });
      }
      const customerId = customerFor();
      session.customer = customerId;
      this.attach(method, customerId);
      intent.customer = customerId;
      intent.payment_method = method.id;
      intent.last_setup_error = null;
      intent.status = 'succeeded';
      this.emit(ctx, 'setup_intent.succeeded', intent);
      complete();
      return result(303);
    }

    // Payment mode: the PaymentIntent is made at the first confirmation and kept for the next ones.
    const data = plan.paymentIntentData ?? new Params({}, 'payment_intent_data');
    let intent =
      typeof session.payment_intent === 'string' ? this.state.paymentIntents.get(session.payment_intent) : undefined;
    if (!intent) {
      intent = this.newIntent({
        amount: session.amount_total ?? 0,
        currency: session.currency ?? 'eur',
        customer: typeof session.customer === 'string' ? session.customer : null,
        captureMethod: (data.str('capture_method') ?? 'automatic') as Stripe.PaymentIntent.CaptureMethod,
        data,
      });
      session.payment_intent = intent.id;
      this.sessionOfIntent.set(intent.id, session.id);
    }
    const saveCard = intent.setup_future_usage !== null;
    const outcome = this.attempt(ctx, intent, method, { offSession: false });
    if (!outcome.ok) return result(402, outcome.decline);
    if (saveCard || session.customer_creation === 'always') {
      const customerId = customerFor();
      session.customer = customerId;
      intent.customer = customerId;
      const charge =
        typeof intent.latest_charge === 'string' ? this.state.charges.get(intent.latest_charge) : undefined;
      if (charge) charge.customer = customerId;
      if (saveCard) this.attach(method, customerId);
    }
    session.payment_status = 'paid';
    complete();
    return result(303);
  }

  private snapshot<T>(map: Map<string, T>, id: string): T | null {
    const value = map.get(id);
    return value === undefined ? null : structuredClone(value);
  }

  // PaymentIntents

  private newIntent(options: {
    amount: number;
    currency: string;
    customer: string | null;
    captureMethod: Stripe.PaymentIntent.CaptureMethod;
    data: Params;
  }): Stripe.PaymentIntent {
    const { data } = options;
    const destination = data.obj('transfer_data')?.str('destination') ?? null;
    const transferAmount = data.obj('transfer_data')?.int('amount') ?? null;
    const id = newId('pi');
    const intent: Stripe.PaymentIntent = {
      ...base('paymentIntent'),
      id,
      object: 'payment_intent',
      allowed_payment_method_types: null,
      amount: options.amount,
      amount_capturable: 0,
      amount_details: { tip: {} },
      amount_received: 0,
      application: null,
      application_fee_amount: data.int('application_fee_amount'),
      automatic_payment_methods: null,
      canceled_at: null,
      cancellation_reason: null,
      capture_method: options.captureMethod,
      client_secret: `${id}_secret_${random(25)}`,
      confirmation_method: 'automatic',
      created: this.now(),
      currency: options.currency,
      customer: options.customer,
      customer_account: null,
      description: data.str('description'),
      excluded_payment_method_types: null,
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
      managed_payments: null,
      metadata: applyMetadata({}, data.meta()),
      next_action: null,
      on_behalf_of: data.str('on_behalf_of'),
      payment_method: null,
      payment_method_configuration_details: null,
      payment_method_options: {
        card: { installments: null, mandate_options: null, network: null, request_three_d_secure: 'automatic' },
      },
      payment_method_types: ['card'],
      payment_record: null,
      processing: null,
      receipt_email: data.str('receipt_email'),
      review: null,
      setup_future_usage: (data.str('setup_future_usage') as Stripe.PaymentIntent.SetupFutureUsage | null) ?? null,
      shipping: null,
      source: null,
      statement_descriptor: data.str('statement_descriptor'),
      statement_descriptor_suffix: data.str('statement_descriptor_suffix'),
      status: 'requires_payment_method',
      transfer_data: destination
        ? { destination, ...(transferAmount !== null ? { amount: transferAmount } : {}) }
        : null,
      transfer_group: data.str('transfer_group'),
    };
    return this.put(this.state.paymentIntents, intent);
  }

  /**
   * Confirms an intent with a card: the charge is authorised (manual capture: requires_capture) or
   * captured (succeeded), or declined (requires_payment_method, with last_payment_error and
   * payment_intent.payment_failed). An injected failure of the request declines it.
   */
  private attempt(
    ctx: Ctx,
    intent: Stripe.PaymentIntent,
    method: Stripe.PaymentMethod,
    options: { offSession: boolean },
  ): { ok: true } | { ok: false; decline: Decline } {
    const card = this.cardOf.get(method.id) ?? TEST_CARDS.success;
    const behaviour = CARDS[card] ?? {};
    const forced = this.injected(ctx, ['card_declined', 'authentication_required']);
    let decline: Decline | null = null;
    if (forced === 'card_declined') decline = DECLINED;
    else if (forced === 'authentication_required') decline = AUTHENTICATION;
    else if (behaviour.decline) decline = behaviour.decline;
    else if (behaviour.declineCharges) decline = DECLINED;
    else if (behaviour.authOffSession && options.offSession) decline = AUTHENTICATION;

    const charge = this.newCharge(intent, method, decline);
    intent.latest_charge = charge.id;
    if (decline) {
      intent.status = 'requires_payment_method';
      intent.payment_method = null;
      intent.last_payment_error = {
        charge: charge.id,
        code: decline.code as Stripe.PaymentIntent.LastPaymentError.Code,
        decline_code: decline.decline_code,
        doc_url: `https://stripe.com/docs/error-codes/${decline.code.replace(/_/g, '-')}`,
        message: decline.message,
        payment_method: structuredClone(method),
        type: 'card_error',
      };
      this.emit(ctx, 'payment_intent.payment_failed', intent);
      return { ok: false, decline };
    }
    if (!method.customer) this.usedWithoutCustomer.add(method.id);
    intent.payment_method = method.id;
    intent.last_payment_error = null;
    if (intent.transfer_data && !intent.transfer_group) intent.transfer_group = `group_${intent.id}`;
    charge.transfer_group = intent.transfer_group;
    this.authorizedAt.set(intent.id, this.now());
    if (intent.capture_method === 'manual') {
      intent.status = 'requires_capture';
      intent.amount_capturable = intent.amount;
      this.emit(ctx, 'payment_intent.amount_capturable_updated', intent);
    } else {
      this.book(ctx, intent, charge, intent.amount, intent.application_fee_amount, card);
      this.emit(ctx, 'payment_intent.succeeded', intent);
    }
    return { ok: true };
  }

  private newCharge(
    intent: Stripe.PaymentIntent,
    method: Stripe.PaymentMethod,
    decline: Decline | null,
  ): Stripe.Charge {
    const card = method.card;
    const destination = intent.transfer_data?.destination;
    const charge: Stripe.Charge = {
      ...base('charge'),
      id: newId('ch'),
      object: 'charge',
      amount: intent.amount,
      amount_captured: 0,
      amount_refunded: 0,
      application: null,
      application_fee: null,
      application_fee_amount: intent.application_fee_amount,
      balance_transaction: null,
      billing_details: structuredClone(method.billing_details),
      calculated_statement_descriptor: 'STRIPE STAND-IN',
      captured: false,
      created: this.now(),
      currency: intent.currency,
      customer: typeof intent.customer === 'string' ? intent.customer : null,
      description: intent.description,
      disputed: false,
      failure_balance_transaction: null,
      failure_code: decline?.code ?? null,
      failure_message: decline?.message ?? null,
      fraud_details: {},
      livemode: false,
      metadata: { ...intent.metadata },
      on_behalf_of: intent.on_behalf_of,
      outcome: decline
        ? {
            advice_code: null,
            network_advice_code: null,
            network_decline_code: null,
            network_status: 'declined_by_network',
            reason: decline.decline_code,
            risk_level: 'normal',
            seller_message: 'The bank did not return any further details with this decline.',
            type: 'issuer_declined',
          }
        : {
            advice_code: null,
            network_advice_code: null,
            network_decline_code: null,
            network_status: 'approved_by_network',
            reason: null,
            risk_level: 'normal',
            seller_message: 'Payment complete.',
            type: 'authorized',
          },
      paid: !decline,
      payment_intent: intent.id,
      payment_method: method.id,
      payment_method_details: {
        card: {
          amount_authorized: decline ? null : intent.amount,
          authorization_code: decline ? null : random(6).toUpperCase(),
          brand: card?.brand ?? 'visa',
          checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
          country: card?.country ?? 'US',
          electronic_commerce_indicator: null,
          exp_month: card?.exp_month ?? 12,
          exp_year: card?.exp_year ?? 2030,
          extended_authorization: { status: 'disabled' },
          fingerprint: card?.fingerprint ?? null,
          funding: card?.funding ?? 'credit',
          incremental_authorization: { status: 'unavailable' },
          installments: null,
          last4: card?.last4 ?? '4242',
          mandate: null,
          multicapture: { status: 'unavailable' },
          network: card?.brand ?? 'visa',
          network_token: { used: false },
          network_transaction_id: random(15),
          overcapture: { maximum_amount_capturable: intent.amount, status: 'unavailable' },
          regulated_status: 'unregulated',
          three_d_secure: null,
          transaction_link_id: null,
          wallet: null,
        },
        type: 'card',
      },
      receipt_email: intent.receipt_email,
      receipt_number: null,
      receipt_url: null,
      refunded: false,
      review: null,
      shipping: null,
      source: null,
      source_transfer: null,
      statement_descriptor: intent.statement_descriptor,
      statement_descriptor_suffix: intent.statement_descriptor_suffix,
      status: decline ? 'failed' : 'succeeded',
      transfer_data: destination
        ? {
            amount: intent.transfer_data?.amount ?? null,
            destination: typeof destination === 'string' ? destination : destination.id,
          }
        : null,
      transfer_group: intent.transfer_group,
    };
    delete charge.refunds;
    return this.put(this.state.charges, charge);
  }

  private txn(options: {
    amount: number;
    type: Stripe.BalanceTransaction.Type;
    reportingCategory: string;
    source: string;
    currency: string;
    description: string | null;
    fee?: number;
    pending?: boolean;
    availableOn?: number;
  }): Stripe.BalanceTransaction {
    const now = this.now();
    const fee = options.fee ?? 0;
    const availableOn = options.availableOn ?? (options.pending ? now + this.availableAfterDays * DAY : now);
    const txn: Stripe.BalanceTransaction = {
      ...base('balanceTransaction'),
      id: newId('txn'),
      object: 'balance_transaction',
      amount: options.amount,
      available_on: availableOn,
      balance_type: 'payments',
      created: now,
      currency: options.currency,
      description: options.description,
      exchange_rate: null,
      fee,
      fee_details:
        fee > 0
          ? [
              {
                amount: fee,
                application: null,
                currency: options.currency,
                description: 'Stripe processing fees',
                type: 'stripe_fee',
              },
            ]
          : [],
      net: options.amount - fee,
      reporting_category: options.reportingCategory,
      source: options.source,
      status: availableOn <= now ? 'available' : 'pending',
      type: options.type,
    };
    return this.put(this.state.balanceTransactions, txn);
  }

  /**
   * A captured charge in the platform's books: the charge (+), and for a destination charge the
   * transfer of it to the destination (-) and the application fee taken back (+).
   */
  private book(
    ctx: Ctx,
    intent: Stripe.PaymentIntent,
    charge: Stripe.Charge,
    amount: number,
    fee: number | null,
    card: string,
  ): void {
    const pending = !CARDS[card]?.availableNow;
    const processing = amount > 0 ? Math.round((amount * this.fees.percent) / 100) + this.fees.fixed : 0;
    const chargeTxn = this.txn({
      amount,
      type: 'charge',
      reportingCategory: 'charge',
      source: charge.id,
      currency: charge.currency,
      description: charge.description,
      fee: processing,
      pending,
    });
    charge.captured = true;
    charge.amount_captured = amount;
    charge.balance_transaction = chargeTxn.id;
    charge.application_fee_amount = fee;
    intent.amount_capturable = 0;
    intent.amount_received = amount;
    intent.application_fee_amount = fee;
    intent.status = 'succeeded';
    this.authorizedAt.delete(intent.id);
    const destinationRef = intent.transfer_data?.destination;
    if (!destinationRef) return;
    const destination = typeof destinationRef === 'string' ? destinationRef : destinationRef.id;
    const transferAmount = Math.min(intent.transfer_data?.amount ?? amount, amount);
    const transfer = this.newTransfer(ctx, {
      amount: transferAmount,
      currency: charge.currency,
      destination,
      description: null,
      metadata: {},
      sourceTransaction: charge.id,
      transferGroup: intent.transfer_group,
    });
    charge.transfer = transfer.id;
    if (fee && fee > 0) {
      const id = newId('fee');
      const feeTxn = this.txn({
        amount: fee,
        type: 'application_fee',
        reportingCategory: 'platform_earning',
        source: id,
        currency: charge.currency,
        description: null,
        pending,
      });
      const applicationFee: Stripe.ApplicationFee = {
        ...base('applicationFee'),
        id,
        object: 'application_fee',
        account: destination,
        amount: fee,
        amount_refunded: 0,
        application: 'ca_standin',
        balance_transaction: feeTxn.id,
        charge: typeof transfer.destination_payment === 'string' ? transfer.destination_payment : charge.id,
        created: this.now(),
        currency: charge.currency,
        fee_source: { charge: charge.id, type: 'charge' },
        livemode: false,
        originating_transaction: charge.id,
        refunded: false,
        refunds: { object: 'list', data: [], has_more: false, url: `/v1/application_fees/${id}/refunds` },
      };
      this.put(this.state.applicationFees, applicationFee);
      charge.application_fee = id;
    }
  }

  private createIntent(ctx: Ctx, p: Params): Stripe.PaymentIntent {
    const amount = p.needInt('amount');
    const currency = p.needStr('currency').toLowerCase();
    if (amount < MINIMUM_CHARGE) {
      throw invalid(
        `Amount must be at least ${money(MINIMUM_CHARGE, currency)} ${currency}`,
        'amount',
        'amount_too_small',
      );
    }
    const customerId = p.str('customer');
    if (customerId && !this.state.customers.has(customerId)) throw noSuch('customer', customerId, 'customer');
    const confirm = p.bool('confirm') ?? false;
    const offSession = this.offSession(p);
    if (offSession && !confirm) throw invalid('off_session can only be used when confirm=true.', 'off_session');
    const method = this.usableMethod(p.str('payment_method'), customerId);
    if (confirm && !method) {
      throw invalid(
        'You cannot confirm this PaymentIntent because it’s missing a payment method. To confirm the PaymentIntent, provide a payment_method.',
        'payment_method',
        'parameter_missing',
      );
    }
    this.checkConnect(p, amount);
    const intent = this.newIntent({
      amount,
      currency,
      customer: customerId,
      captureMethod: (p.str('capture_method') ?? 'automatic') as Stripe.PaymentIntent.CaptureMethod,
      data: p,
    });
    if (method) {
      intent.payment_method = method.id;
      intent.status = 'requires_confirmation';
    }
    if (confirm && method) this.confirm(ctx, intent, method, offSession);
    return intent;
  }

  private offSession(p: Params): boolean {
    const value = p.values.off_session;
    if (value === undefined || value === null || value === 'false') return false;
    if (value === 'true' || value === 'one_off' || value === 'recurring') return true;
    throw invalid(`Invalid off_session: must be a boolean, one_off or recurring`, 'off_session');
  }

  private usableMethod(id: string | null, customerId: string | null): Stripe.PaymentMethod | null {
    if (!id) return null;
    const method = this.state.paymentMethods.get(id);
    if (!method) throw noSuch('PaymentMethod', id, 'payment_method');
    const owner = typeof method.customer === 'string' ? method.customer : (method.customer?.id ?? null);
    if (owner && owner !== customerId) {
      throw invalid(
        customerId
          ? `The provided PaymentMethod belongs to a different Customer (${owner}).`
          : 'The provided PaymentMethod is attached to a Customer; provide that customer too.',
        'payment_method',
      );
    }
    if (!owner && this.usedWithoutCustomer.has(id)) {
      throw invalid(
        'The provided PaymentMethod was previously used with a PaymentIntent without Customer attachment, shared with a connected account without Customer attachment, or was detached from a Customer. It may not be used again. To use a PaymentMethod multiple times, you must attach it to a Customer first.',
        'payment_method',
      );
    }
    return method;
  }

  /** A confirmation through the API: a declined card answers 402 card_error with the failed intent. */
  private confirm(ctx: Ctx, intent: Stripe.PaymentIntent, method: Stripe.PaymentMethod, offSession: boolean): void {
    const card = this.cardOf.get(method.id) ?? TEST_CARDS.success;
    if (!offSession && CARDS[card]?.authOffSession && !ctx.injection) {
      intent.payment_method = method.id;
      intent.status = 'requires_action';
      intent.next_action = { type: 'use_stripe_sdk', use_stripe_sdk: {} };
      return;
    }
    const outcome = this.attempt(ctx, intent, method, { offSession });
    if (!outcome.ok) {
      throw new ApiError(402, {
        type: 'card_error',
        code: outcome.decline.code,
        decline_code: outcome.decline.decline_code,
        message: outcome.decline.message,
        doc_url: `https://stripe.com/docs/error-codes/${outcome.decline.code.replace(/_/g, '-')}`,
        charge: typeof intent.latest_charge === 'string' ? intent.latest_charge : undefined,
        payment_intent: structuredClone(intent),
        payment_method: structuredClone(method),
      });
    }
  }

  private confirmByApi(ctx: Ctx, intent: Stripe.PaymentIntent, p: Params): Stripe.PaymentIntent {
    if (intent.status !== 'requires_payment_method' && intent.status !== 'requires_confirmation') {
      throw invalid(
        `You cannot confirm this PaymentIntent because it has a status of ${intent.status}.`,
        undefined,
        'payment_intent_unexpected_state',
      );
    }
    if (this.sessionOfIntent.has(intent.id)) {
      throw invalid('This PaymentIntent is managed by a Checkout Session and cannot be confirmed through the API.');
    }
    const customerId = typeof intent.customer === 'string' ? intent.customer : null;
    const method =
      this.usableMethod(p.str('payment_method'), customerId) ??
      (typeof intent.payment_method === 'string' ? this.usableMethod(intent.payment_method, customerId) : null);
    if (!method) {
      throw invalid(
        'You cannot confirm this PaymentIntent because it’s missing a payment method.',
        'payment_method',
        'parameter_missing',
      );
    }
    const captureMethod = p.str('capture_method');
    if (captureMethod) intent.capture_method = captureMethod as Stripe.PaymentIntent.CaptureMethod;
    this.confirm(ctx, intent, method, this.offSession(p));
    return intent;
  }

  private capture(ctx: Ctx, intent: Stripe.PaymentIntent, p: Params): Stripe.PaymentIntent {
    if (intent.status !== 'requires_capture') {
      throw invalid(
        `This PaymentIntent could not be captured because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be captured: requires_capture.`,
        undefined,
        'payment_intent_unexpected_state',
      );
    }
    const amount = p.int('amount_to_capture') ?? intent.amount_capturable;
    if (amount < 1) throw invalid('Invalid positive integer', 'amount_to_capture');
    if (amount > intent.amount_capturable) {
      throw invalid(
        `The amount to capture (${amount}) must be less than or equal to the amount capturable (${intent.amount_capturable}).`,
        'amount_to_capture',
        'amount_too_large',
      );
    }
    const fee = p.int('application_fee_amount') ?? intent.application_fee_amount;
    if (p.has('application_fee_amount') && !intent.transfer_data) {
      throw invalid(
        'Can only apply an application_fee_amount when the PaymentIntent is attempting a direct payment (using an OAuth key or Stripe-Account header) or destination payment (using `transfer_data[destination]`).',
        'application_fee_amount',
      );
    }
    if (fee !== null && fee > amount) {
      throw invalid(
        'application_fee_amount must be less than or equal to amount_to_capture.',
        'application_fee_amount',
      );
    }
    const transferAmount = p.obj('transfer_data')?.int('amount');
    if (transferAmount !== null && transferAmount !== undefined) {
      if (!intent.transfer_data)
        throw invalid('transfer_data can only be used on a destination charge.', 'transfer_data[amount]');
      if (transferAmount > amount)
        throw invalid('transfer_data[amount] must be at most amount_to_capture.', 'transfer_data[amount]');
      intent.transfer_data.amount = transferAmount;
    }
    applyMetadata(intent.metadata, p.meta());
    const charge = typeof intent.latest_charge === 'string' ? this.state.charges.get(intent.latest_charge) : undefined;
    if (!charge) throw new Error(`${intent.id} has no charge`);
    const statementDescriptor = p.str('statement_descriptor');
    if (statementDescriptor) intent.statement_descriptor = statementDescriptor;
    const card = typeof charge.payment_method === 'string' ? (this.cardOf.get(charge.payment_method) ?? '') : '';
    this.book(ctx, intent, charge, amount, fee, card);
    this.emit(ctx, 'payment_intent.succeeded', intent);
    return intent;
  }

  private cancelByApi(ctx: Ctx, intent: Stripe.PaymentIntent, p: Params): Stripe.PaymentIntent {
    const cancelable = [
      'requires_payment_method',
      'requires_capture',
      'requires_confirmation',
      'requires_action',
      'processing',
    ];
    if (!cancelable.includes(intent.status)) {
      throw invalid(
        `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: ${cancelable.join(', ')}.`,
        undefined,
        'payment_intent_unexpected_state',
      );
    }
    const sessionId = this.sessionOfIntent.get(intent.id);
    if (sessionId && this.state.checkoutSessions.get(sessionId)?.status === 'open') {
      throw invalid(
        'This PaymentIntent is managed by an open Checkout Session and cannot be canceled; expire the Checkout Session instead.',
        undefined,
        'payment_intent_unexpected_state',
      );
    }
    this.cancelIntent(
      ctx,
      intent,
      (p.str('cancellation_reason') ?? null) as Stripe.PaymentIntent.CancellationReason | null,
    );
    return intent;
  }

  private cancelIntent(
    ctx: Ctx,
    intent: Stripe.PaymentIntent,
    reason: Stripe.PaymentIntent.CancellationReason | null,
  ): void {
    intent.status = 'canceled';
    intent.canceled_at = this.now();
    intent.cancellation_reason = reason;
    intent.amount_capturable = 0;
    intent.next_action = null;
    this.authorizedAt.delete(intent.id);
    this.emit(ctx, 'payment_intent.canceled', intent);
  }

  // Refunds

  private createRefund(ctx: Ctx, p: Params): Stripe.Refund {
    const intentId = p.str('payment_intent');
    const chargeId = p.str('charge');
    if (!intentId && !chargeId) {
      throw invalid(
        'One of the following params should be provided for this request: payment_intent or charge.',
        'payment_intent',
        'parameter_missing',
      );
    }
    let charge: Stripe.Charge | undefined;
    let intent: Stripe.PaymentIntent | undefined;
    if (intentId) {
      intent = this.state.paymentIntents.get(intentId);
      if (!intent) throw noSuch('payment_intent', intentId, 'payment_intent');
      if (intent.status !== 'succeeded') {
        throw invalid(
          `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`,
          'payment_intent',
          'charge_not_refundable',
        );
      }
      charge = typeof intent.latest_charge === 'string' ? this.state.charges.get(intent.latest_charge) : undefined;
    } else if (chargeId) {
      charge = this.state.charges.get(chargeId);
      if (!charge) throw noSuch('charge', chargeId, 'charge');
      intent =
        typeof charge.payment_intent === 'string' ? this.state.paymentIntents.get(charge.payment_intent) : undefined;
    }
    if (!charge?.captured || charge.status !== 'succeeded') {
      throw invalid(
        'This charge has not been captured and cannot be refunded.',
        intentId ? 'payment_intent' : 'charge',
        'charge_not_refundable',
      );
    }
    const refundable = charge.amount_captured - charge.amount_refunded;
    if (refundable <= 0)
      throw invalid(`Charge ${charge.id} has already been refunded.`, undefined, 'charge_already_refunded');
    const amount = p.int('amount') ?? refundable;
    if (amount < 1) throw invalid('Invalid positive integer', 'amount');
    if (amount > refundable) {
      throw invalid(
        `Refund amount (${money(amount, charge.currency)}) is greater than unrefunded amount on charge (${money(refundable, charge.currency)})`,
        'amount',
        'amount_too_large',
      );
    }
    const id = newId('re');
    const txn = this.txn({
      amount: -amount,
      type: 'refund',
      reportingCategory: 'refund',
      source: id,
      currency: charge.currency,
      description: 'REFUND FOR CHARGE',
    });
    let reversalId: string | null = null;
    const transfer = typeof charge.transfer === 'string' ? this.state.transfers.get(charge.transfer) : undefined;
    if (p.bool('reverse_transfer') && transfer) {
      const reversed = Math.min(
        Math.round((amount * transfer.amount) / charge.amount_captured),
        transfer.amount - transfer.amount_reversed,
      );
      if (reversed > 0) reversalId = this.reverse(transfer, reversed, id).id;
    }
    const feeId = typeof charge.application_fee === 'string' ? charge.application_fee : null;
    const fee = feeId ? this.state.applicationFees.get(feeId) : undefined;
    if (p.bool('refund_application_fee') && fee) {
      const refunded = Math.min(
        Math.round((amount * fee.amount) / charge.amount_captured),
        fee.amount - fee.amount_refunded,
      );
      if (refunded > 0) this.refundFee(fee, refunded);
    }
    const refund: Stripe.Refund = {
      ...base('refund'),
      id,
      object: 'refund',
      amount,
      balance_transaction: txn.id,
      charge: charge.id,
      created: this.now(),
      currency: charge.currency,
      customer: typeof charge.customer === 'string' ? charge.customer : null,
      customer_account: null,
      destination_details: {
        card: {
          reference: random(23),
          reference_status: 'available',
          reference_type: 'acquirer_reference_number',
          type: 'refund',
        },
        type: 'card',
      },
      metadata: applyMetadata({}, p.meta()),
      payment_intent: intent?.id ?? null,
      payment_method: charge.payment_method,
      reason: (p.str('reason') as Stripe.Refund.Reason | null) ?? null,
      receipt_number: null,
      source_transfer_reversal: null,
      status: 'succeeded',
      transfer_reversal: reversalId,
    };
    this.put(this.state.refunds, refund);
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded >= charge.amount_captured;
    this.emit(ctx, 'charge.refunded', charge);
    this.emit(ctx, 'refund.created', refund);
    return refund;
  }

  private reverse(transfer: Stripe.Transfer, amount: number, refundId: string | null): Stripe.TransferReversal {
    const id = newId('trr');
    const txn = this.txn({
      amount,
      type: 'transfer_refund',
      reportingCategory: 'transfer_reversal',
      source: id,
      currency: transfer.currency,
      description: null,
    });
    const reversal: Stripe.TransferReversal = {
      ...base('transferReversal'),
      id,
      object: 'transfer_reversal',
      amount,
      balance_transaction: txn.id,
      created: this.now(),
      currency: transfer.currency,
      destination_payment_refund: newId('pyr'),
      metadata: {},
      source_refund: refundId,
      transfer: transfer.id,
    };
    this.put(this.state.transferReversals, reversal);
    transfer.amount_reversed += amount;
    transfer.reversed = transfer.amount_reversed >= transfer.amount;
    transfer.reversals.data.unshift(structuredClone(reversal));
    return reversal;
  }

  private refundFee(fee: Stripe.ApplicationFee, amount: number): void {
    const id = newId('fr');
    const txn = this.txn({
      amount: -amount,
      type: 'application_fee_refund',
      reportingCategory: 'platform_earning_refund',
      source: id,
      currency: fee.currency,
      description: null,
    });
    const refund: Stripe.FeeRefund = {
      ...base('feeRefund'),
      id,
      object: 'fee_refund',
      amount,
      balance_transaction: txn.id,
      created: this.now(),
      currency: fee.currency,
      fee: fee.id,
      metadata: {},
    };
    this.put(this.state.feeRefunds, refund);
    fee.amount_refunded += amount;
    fee.refunded = fee.amount_refunded >= fee.amount;
    fee.refunds.data.unshift(structuredClone(refund));
  }

  // Transfers and balance

  private createTransfer(ctx: Ctx, p: Params): Stripe.Transfer {
    const amount = p.needInt('amount');
    const currency = p.needStr('currency').toLowerCase();
    const destination = p.needStr('destination');
    if (amount < 1) throw invalid('Invalid positive integer', 'amount');
    this.destination(destination, 'destination');
    const sourceTransaction = p.str('source_transaction');
    if (this.injected(ctx, ['transfer_failed'])) throw this.insufficientFunds();
    if (sourceTransaction) {
      const charge = this.state.charges.get(sourceTransaction);
      if (!charge) throw noSuch('charge', sourceTransaction, 'source_transaction');
      if (!charge.captured || charge.status !== 'succeeded') {
        throw invalid('The source_transaction must be a captured charge.', 'source_transaction');
      }
      if (charge.currency !== currency)
        throw invalid('The currency must be the currency of the source_transaction.', 'currency');
      const transferred = [...this.state.transfers.values()]
        .filter((transfer) => transfer.source_transaction === charge.id)
        .reduce((sum, transfer) => sum + transfer.amount - transfer.amount_reversed, 0);
      if (amount > charge.amount_captured - charge.amount_refunded - transferred) {
        throw invalid(
          `Insufficient funds in source transaction ${charge.id}: ${money(charge.amount_captured - charge.amount_refunded - transferred, currency)} left to transfer.`,
          'amount',
          'balance_insufficient',
        );
      }
    } else if ((this.balanceOf('available').get(currency) ?? 0) < amount) {
      throw this.insufficientFunds();
    }
    return this.newTransfer(ctx, {
      amount,
      currency,
      destination,
      description: p.str('description'),
      metadata: applyMetadata({}, p.meta()),
      sourceTransaction,
      transferGroup: p.str('transfer_group'),
    });
  }

  private insufficientFunds(): ApiError {
    return invalid(
      'You have insufficient available funds in your Stripe account. Try adding funds directly to your available balance by creating Charges using the 4000000000000077 test card. See: https://stripe.com/docs/testing#available-balance',
      undefined,
      'balance_insufficient',
    );
  }

  private newTransfer(
    ctx: Ctx,
    options: {
      amount: number;
      currency: string;
      destination: string;
      description: string | null;
      metadata: Stripe.Metadata;
      sourceTransaction: string | null;
      transferGroup: string | null;
    },
  ): Stripe.Transfer {
    const id = newId('tr');
    // A transfer from a charge draws on that charge's funds: it is available when they are.
    const source = options.sourceTransaction ? this.state.charges.get(options.sourceTransaction) : undefined;
    const sourceTxn =
      typeof source?.balance_transaction === 'string'
        ? this.state.balanceTransactions.get(source.balance_transaction)
        : undefined;
    const txn = this.txn({
      amount: -options.amount,
      type: 'transfer',
      reportingCategory: 'transfer',
      source: id,
      currency: options.currency,
      description: options.description,
      availableOn: sourceTxn?.available_on,
    });
    const transfer: Stripe.Transfer = {
      ...base('transfer'),
      id,
      object: 'transfer',
      amount: options.amount,
      amount_reversed: 0,
      balance_transaction: txn.id,
      created: this.now(),
      currency: options.currency,
      description: options.description,
      destination: options.destination,
      destination_payment: newId('py'),
      livemode: false,
      metadata: options.metadata,
      reversals: { object: 'list', data: [], has_more: false, url: `/v1/transfers/${id}/reversals` },
      reversed: false,
      source_transaction: options.sourceTransaction,
      source_type: 'card',
      transfer_group: options.transferGroup,
    };
    this.put(this.state.transfers, transfer);
    this.emit(ctx, 'transfer.created', transfer);
    return transfer;
  }

  private balanceOf(status: 'available' | 'pending'): Map<string, number> {
    const sums = new Map<string, number>();
    for (const txn of this.state.balanceTransactions.values()) {
      if (txn.status === status) sums.set(txn.currency, (sums.get(txn.currency) ?? 0) + txn.net);
    }
    return sums;
  }

  private balance(): Stripe.Balance {
    const available = this.balanceOf('available');
    const pending = this.balanceOf('pending');
    const currencies = new Set(['eur', ...available.keys(), ...pending.keys()]);
    return {
      ...base('balance'),
      object: 'balance',
      available: [...currencies].map((currency) => ({
        amount: available.get(currency) ?? 0,
        currency,
        source_types: { card: available.get(currency) ?? 0 },
      })),
      connect_reserved: [...currencies].map((currency) => ({ amount: 0, currency })),
      livemode: false,
      pending: [...currencies].map((currency) => ({
        amount: pending.get(currency) ?? 0,
        currency,
        source_types: { card: pending.get(currency) ?? 0 },
      })),
    };
  }

  // -- pages of the payer's and the payee's browser --------------------------------------------

  private checkoutPage(request: IncomingMessage, response: ServerResponse, sessionId: string, body: string) {
    const session = this.state.checkoutSessions.get(sessionId);
    const page = (status: number, html: string) =>
      response
        .writeHead(status, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<!doctype html><html lang="en"><meta charset="utf-8"><title>Checkout (Stripe stand-in)</title>${html}</html>`,
        );
    if (!session) return page(404, '<h1>Something went wrong</h1><p>This Checkout Session does not exist.</p>');
    if (request.method === 'POST') {
      const form = parseForm(body);
      const field = (name: string) =>
        typeof form[name] === 'string' && form[name] !== '' ? (form[name] as string) : undefined;
      const ctx = this.automatic();
      ctx.injection = this.match('POST', `/checkout/${sessionId}`, ['card_declined', 'authentication_required']);
      const result = this.payCheckout(ctx, sessionId, field('card') ?? TEST_CARDS.success, {
        email: field('email'),
        name: field('name'),
      });
      response.once('finish', () => this.enqueue(ctx.events));
      if (result.status === 303) {
        if (result.location) return void response.writeHead(303, { location: result.location }).end();
        return page(200, '<h1>Thanks for your payment</h1>');
      }
      return page(
        result.status,
        `<h1>Payment failed</h1><p role="alert">${escapeHtml(result.error?.message ?? '')}</p>${this.form(session)}`,
      );
    }
    if (session.status === 'open' && session.expires_at <= this.now()) this.sweep();
    if (session.status !== 'open')
      return page(410, `<h1>This Checkout Session is ${escapeHtml(String(session.status))}</h1>`);
    return page(200, this.form(session));
  }

  private form(session: Stripe.Checkout.Session): string {
    const plan = this.plans.get(session.id);
    const items = (plan?.lineItems ?? [])
      .map(
        (item) =>
          `<li>${escapeHtml(item.name)} × ${item.quantity}: ${money(item.unitAmount * item.quantity, session.currency ?? 'eur')}</li>`,
      )
      .join('');
    const title =
      session.mode === 'setup'
        ? 'Save your card'
        : `Pay ${money(session.amount_total ?? 0, session.currency ?? 'eur')}`;
    const back = session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">Back</a></p>` : '';
    return `<h1>${title}</h1><ul>${items}</ul><form method="post">
<label>Email <input name="email" type="email" value="${escapeHtml(session.customer_email ?? '')}"></label>
<label>Name on card <input name="name"></label>
<label>Card number <input name="card" inputmode="numeric" value="${TEST_CARDS.success}"></label>
<button type="submit">${session.mode === 'setup' ? 'Save card' : 'Pay'}</button></form>${back}`;
  }

  private onboardingPage(request: IncomingMessage, response: ServerResponse, accountId: string) {
    const account = this.state.accounts.get(accountId);
    const link = this.links.get(accountId);
    const page = (status: number, html: string) =>
      response
        .writeHead(status, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<!doctype html><html lang="en"><meta charset="utf-8"><title>Onboarding (Stripe stand-in)</title>${html}</html>`,
        );
    if (!account || !link) return page(404, '<h1>This link is not valid</h1>');
    if (link.expiresAt <= this.now()) return void response.writeHead(303, { location: link.refreshUrl }).end();
    if (request.method === 'POST') {
      const ctx = this.automatic();
      this.onboard(ctx, account);
      response.once('finish', () => this.enqueue(ctx.events));
      return void response.writeHead(303, { location: link.returnUrl }).end();
    }
    return page(
      200,
      `<h1>Get paid with Stripe</h1><p>${escapeHtml(account.email ?? account.id)}</p><form method="post"><button type="submit">Agree and submit</button></form>`,
    );
  }

  // -- webhooks ------------------------------------------------------------------------------------

  private enqueue(events: Stripe.Event[]): void {
    if (!this.webhook || events.length === 0) return;
    if (this.held) {
      this.held.push(...events);
      return;
    }
    for (const event of events) this.push({ event, attempt: 1, redelivery: false });
  }

  private push(item: QueuedDelivery): void {
    this.queue.push(item);
    void this.pump();
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      for (let item = this.queue.shift(); item; item = this.queue.shift()) await this.deliver(item);
    } finally {
      this.pumping = false;
      this.wake();
    }
  }

  private idle(): boolean {
    return !this.pumping && this.queue.length === 0 && this.retrying === 0;
  }

  private wake(): void {
    if (!this.idle()) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private async deliver(item: QueuedDelivery): Promise<void> {
    const webhook = this.webhook;
    const delivery: WebhookDelivery = {
      eventId: item.event.id,
      type: item.event.type,
      attempt: item.attempt,
      redelivery: item.redelivery,
      status: null,
      body: '',
      error: null,
      at: Date.now(),
    };
    if (!webhook) {
      delivery.error = 'no webhook URL';
      item.done?.(delivery);
      return;
    }
    const payload = this.payloads.get(item.event.id) ?? JSON.stringify(item.event, null, 2);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: webhook.secret });
    const answer = await this.post(webhook.url, payload, signature);
    Object.assign(delivery, answer, { at: Date.now() });
    this.deliveries.push(delivery);
    const ok = delivery.status !== null && delivery.status >= 200 && delivery.status < 300;
    if (ok && item.event.pending_webhooks > 0) item.event.pending_webhooks--;
    item.done?.(delivery);
    if (!ok && item.attempt <= this.webhookRetries && this.webhook) {
      this.retrying++;
      const timer = setTimeout(
        () => {
          this.timers.delete(timer);
          this.retrying--;
          this.push({ event: item.event, attempt: item.attempt + 1, redelivery: item.redelivery });
        },
        this.webhookBackoffMs * 2 ** (item.attempt - 1),
      );
      this.timers.add(timer);
    }
  }

  private post(
    url: URL,
    payload: string,
    signature: string,
  ): Promise<Pick<WebhookDelivery, 'status' | 'body' | 'error'>> {
    return new Promise((resolve) => {
      const request = httpRequest(
        url,
        {
          method: 'POST',
          agent: false,
          timeout: this.webhookTimeoutMs,
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'content-length': Buffer.byteLength(payload),
            'stripe-signature': signature,
            'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          },
        },
        (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            body += chunk;
          });
          response.on('end', () => resolve({ status: response.statusCode ?? null, body, error: null }));
          response.on('error', (error) => resolve({ status: response.statusCode ?? null, body, error: error.message }));
        },
      );
      request.on('timeout', () => request.destroy(new Error(`no answer within ${this.webhookTimeoutMs} ms`)));
      request.on('error', (error) => resolve({ status: null, body: '', error: error.message }));
      request.end(payload);
    });
  }
}

/** A stand-in listening on 127.0.0.1 (any port). */
export async function startStripeStandIn(options: StripeStandInOptions = {}): Promise<StripeStandIn> {
  const standIn = new StripeStandIn(options);
  await standIn.listen();
  return standIn;
}
