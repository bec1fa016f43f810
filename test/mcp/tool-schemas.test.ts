/**
 * The tools' input and output schemas in the dialect strict model providers and MCP clients accept
 * (issue 16): what Gemini's OpenAPI subset, OpenAI's strict function schemas and the MCP
 * Inspector's --strict portability check refuse or drop never appears. Checked on the tools as the
 * stdio server makes them from the route registry (the /mcp endpoint lists the very same, see
 * mcp.test.ts); the answers are checked against the output schemas there and by the Inspector
 * (inspector.test.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Tool } from '@modelcontextprotocol/server';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { routeCatalog } from '../../src/mcp/catalog.js';
import { Tools } from '../../src/mcp/tools.js';

type Schema = Record<string, unknown>;

/** The keywords a tool schema may use: JSON Schema's own, with one meaning in every dialect. */
const KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'enum',
  'const',
  'description',
  'default',
  'format',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
]);
const TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);

const isSchema = (value: unknown): value is Schema =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Every problem a strict dialect finds in `schema`, with the path to it. */
function problems(schema: unknown, path: string): string[] {
  if (!isSchema(schema)) return [`${path}: a boolean or non-object schema`];
  const found: string[] = [];
  for (const key of Object.keys(schema)) if (!KEYWORDS.has(key)) found.push(`${path}: keyword '${key}'`);
  const { type } = schema;
  if (type === undefined) {
    if (!Array.isArray(schema.anyOf)) found.push(`${path}: neither type nor anyOf (accepts anything)`);
  } else if (typeof type !== 'string' || !TYPES.has(type)) {
    found.push(`${path}: type ${JSON.stringify(type)} (one type per schema)`);
  }
  if (Array.isArray(schema.enum)) {
    if (schema.enum.some((value) => value === null)) found.push(`${path}: null in enum`);
    if (schema.enum.some((value) => typeof value !== (type === 'integer' ? 'number' : type))) {
      found.push(`${path}: enum values of another type than ${String(type)}`);
    }
  }
  const objectish = ['properties', 'required', 'additionalProperties'].some((key) => key in schema);
  if (objectish && type !== 'object') found.push(`${path}: object keywords without type: object`);
  if (type === 'object' && schema.additionalProperties === undefined) found.push(`${path}: additionalProperties unset`);
  if (type === 'object' && !isSchema(schema.properties)) found.push(`${path}: an object without properties`);
  if (type === 'array' && !isSchema(schema.items)) found.push(`${path}: an array without items`);
  if (Array.isArray(schema.required) && isSchema(schema.properties)) {
    const properties = schema.properties;
    for (const name of schema.required) if (!(name in properties)) found.push(`${path}: required '${name}' undeclared`);
  }
  if (Array.isArray(schema.anyOf)) {
    if (schema.anyOf.length < 2) found.push(`${path}: anyOf with fewer than two branches`);
    schema.anyOf.forEach((branch, i) => {
      found.push(...problems(branch, `${path}.anyOf[${i}]`));
    });
    const nulls = schema.anyOf.filter((branch) => isSchema(branch) && branch.type === 'null');
    if (nulls.some((branch) => Object.keys(branch).length !== 1)) found.push(`${path}: a null branch with more`);
  }
  if (isSchema(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      found.push(...problems(property, `${path}.properties.${name}`));
    }
  }
  if ('items' in schema) found.push(...problems(schema.items, `${path}.items`));
  if (isSchema(schema.additionalProperties)) {
    found.push(...problems(schema.additionalProperties, `${path}.additionalProperties`));
  }
  return found;
}

/** Input properties that may be null: a tool takes them as optional instead, unless required. */
function nullableInputs(tool: Tool): string[] {
  const required = new Set(tool.inputSchema.required ?? []);
  return Object.entries(tool.inputSchema.properties ?? {})
    .filter(([name, property]) => !required.has(name) && JSON.stringify(property).includes('"null"'))
    .map(([name]) => name);
}

const catalog = new Tools(routeCatalog());
const tools = catalog.list(true);

describe('the tool schemas', () => {
  test('every tool has an input schema and, where its answer has a body, an output schema, each an object', () => {
    assert.ok(tools.length > 60, `${tools.length} tools`);
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, 'object', tool.name);
      const spec = catalog.named(tool.name);
      if (spec?.method === 'DELETE') assert.equal(tool.outputSchema, undefined, `${tool.name}: 204, no body`);
      else assert.equal(tool.outputSchema?.type, 'object', tool.name);
    }
  });

  test('output schemas carry no words (the OpenAPI document has them): tools/list stays readable', () => {
    for (const tool of tools) {
      const text = JSON.stringify(tool.outputSchema ?? {});
      assert.ok(!text.includes('"examples"'), tool.name);
      assert.ok(!/"description":"/.test(text), tool.name);
    }
    // 241 KB before output schemas lost their limits and the components nested in other components;
    // 215,700 with issue 30's two export sections (places read, and who read yours); 202,600 with the
    // export's records as open objects (below); 215,000 with issue 30's three completion tools
    // (get_application, confirm_completion, object_to_completion) and the completion in every
    // application the application tools answer; 226,700 with issue 32's four payment tools
    // (list_payments, get_payment, mark_payment_paid, confirm_payment_received: ~2,700 each);
    // 231,000 with the bank account's three (put, get, delete: ~1,400 each); 246,800 with a
    // booking's rent and deposit in the payment tools and the claims' five (release_deposit,
    // file_claim, get_claim, accept_claim, dispute_claim, with the Claim in each answer): 15,800 in all;
    // 260,400 with cancellation policies (the field and the cancellation answer in every tool
    // answering a job, listing or booking, the payments summary in applications and bookings);
    // 262,300 with the late fee per day of listings and bookings; 270,600 with no-shows (the
    // report_no_show tool, the no_show and cancellation in every application the tools answer);
    // 278,700 with Stripe's three (get_my_payouts, start_payout_onboarding, checkout_payment);
    // 306,000 with issue 35's seven job series tools (each answering the whole JobSeries, its
    // occurrences written out: ~3,900 each) and the series_id of every job the tools answer;
    // 318,000 with its five standing-helper tools (apply, list, accept, reject, end); 324,400 with
    // update_job_series; 327,300 with a listing's booking rules (min_lead_hours, buffer_hours,
    // max_booking_days) in every tool that answers or takes a listing; 334,800 with lending by the
    // hour (price_per_hour_eur, min_hours, opening_hours in every listing; start_at, end_at, hours
    // and the hourly price in every booking); 343,100 with the four extension tools; 349,000 with
    // the three waiting-list tools; 354,500 with the three busy-calendar tools; 361,600 with
    // excuse_job_series_helper and the excused dates in every tool answering an application (a
    // series' or a job's); 367,500 with the two notification-settings tools; 373,800 with the
    // three push-subscription tools and the push channel.
    assert.ok(JSON.stringify(tools).length < 374_800, `tools/list with a key: ${JSON.stringify(tools).length} B`);
  });

  test("export_my_data's output keeps the sections and leaves their records open (the document lists the fields)", () => {
    const output = tools.find((tool) => tool.name === 'export_my_data')?.outputSchema as Schema;
    const sections = output.properties as Record<string, Schema>;
    const open = { type: 'object', properties: {}, additionalProperties: true };
    assert.deepEqual(sections.jobs, { type: 'array', items: open });
    assert.deepEqual(sections.account, open);
    assert.deepEqual(sections.format, { type: 'string', const: 'karlsruhe-marketplace-account-export' });
    assert.ok((output.required as string[]).includes('place_releases'));
    // 4,000 until issue 31's sections (passkeys, connected_apps, oauth_clients): each section is
    // one name and an open record here, about 60 bytes; 4,247 with issue 32's payments and
    // bank_account; 4,352 with its claims; 4,951 with issue 35's job_series,
    // job_series_skips and series_applications; 5,080 with booking_extensions; 5,457 with
    // waitlist_entries, busy_calendars and job_series_excusals; 5,711 with notification_settings and
    // notifications; 5,840 with push_subscriptions.
    assert.ok(JSON.stringify(output).length < 5_950, `${JSON.stringify(output).length} B`);
  });

  test('an output schema writes out its own component, and a component inside it as an open object', () => {
    const job = tools.find((tool) => tool.name === 'get_job')?.outputSchema as Schema;
    const properties = job.properties as Record<string, Schema>;
    assert.deepEqual(properties.location, { type: 'object', properties: {}, additionalProperties: true });
    assert.deepEqual(properties.title, { type: 'string' });
    const page = tools.find((tool) => tool.name === 'search_jobs')?.outputSchema as Schema;
    const data = (page.properties as Record<string, Schema>).data as Schema;
    assert.deepEqual(((data.items as Schema).properties as Record<string, Schema>).title, { type: 'string' });
  });

  test('pass the strict dialect checks: one type per schema, no nullable, objects closed, self-contained', () => {
    const found = tools.flatMap((tool) => [
      ...problems(tool.inputSchema, `${tool.name}.inputSchema`),
      ...(tool.outputSchema ? problems(tool.outputSchema, `${tool.name}.outputSchema`) : []),
    ]);
    assert.deepEqual(found, []);
    const text = JSON.stringify(tools);
    for (const word of ['"nullable"', '"$ref"', '"$id"', '"$defs"', '"definitions"', '"headers"']) {
      assert.ok(!text.includes(word), word);
    }
  });

  test('the checks find what they look for', () => {
    const bad = {
      type: 'object',
      properties: {
        a: { type: ['string', 'null'] },
        b: { $ref: 'Job' },
        c: {},
        d: { type: 'string', enum: ['x', null], nullable: true },
        e: { properties: { f: { type: 'integer' } } },
      },
    };
    assert.deepEqual(problems(bad, 'bad'), [
      'bad: additionalProperties unset',
      'bad.properties.a: type ["string","null"] (one type per schema)',
      "bad.properties.b: keyword '$ref'",
      'bad.properties.b: neither type nor anyOf (accepts anything)',
      'bad.properties.c: neither type nor anyOf (accepts anything)',
      "bad.properties.d: keyword 'nullable'",
      'bad.properties.d: null in enum',
      'bad.properties.d: enum values of another type than string',
      'bad.properties.e: neither type nor anyOf (accepts anything)',
      'bad.properties.e: object keywords without type: object',
    ]);
  });

  test('inputs that may be null are optional instead where leaving them out means the same (creates)', () => {
    // Where null clears a field (PATCH, PUT), the inputs keep null; everywhere else it is left out.
    assert.deepEqual(
      tools.flatMap((tool) => nullableInputs(tool).map((name) => `${tool.name}.${name}`)),
      [
        'update_job.desired_at',
        'update_job.deadline',
        'update_job.time_preference',
        'update_job_series.time_preference',
        'update_helper.availability',
        'update_listing.price_per_week_eur',
        'update_listing.late_fee_per_day_eur',
        'update_listing.max_booking_days',
        'update_listing.price_per_hour_eur',
        'update_listing.opening_hours',
        'update_notification_settings.quiet_hours',
        'put_my_provider.register',
        'put_my_provider.vat_id',
      ],
    );
    // Where the routes take null.
    const nullableInRoutes = catalog.specs.flatMap((spec) =>
      [spec.schemas.params, spec.schemas.query, spec.schemas.body].flatMap((part) =>
        Object.entries(((part as { properties?: object } | undefined)?.properties ?? {}) as Record<string, unknown>)
          .filter(([, property]) => JSON.stringify(property).includes('"null"'))
          .map(([name]) => `${spec.name}.${name}`),
      ),
    );
    assert.deepEqual(nullableInRoutes, [
      'request_developer_key.organisation',
      'create_job.desired_at',
      'create_job.deadline',
      'create_job.time_preference',
      'update_job.desired_at',
      'update_job.deadline',
      'update_job.time_preference',
      'create_job_series.time_preference',
      'update_job_series.time_preference',
      'create_helper.availability',
      'update_helper.availability',
      'create_listing.price_per_week_eur',
      'create_listing.late_fee_per_day_eur',
      'create_listing.max_booking_days',
      'create_listing.price_per_hour_eur',
      'create_listing.opening_hours',
      'update_listing.price_per_week_eur',
      'update_listing.late_fee_per_day_eur',
      'update_listing.max_booking_days',
      'update_listing.price_per_hour_eur',
      'update_listing.opening_hours',
      'update_notification_settings.quiet_hours',
      'create_push_subscription.expirationTime',
      'put_my_provider.register',
      'put_my_provider.vat_id',
    ]);
    const create = tools.find((tool) => tool.name === 'create_job');
    const properties = create?.inputSchema.properties as Record<string, Schema>;
    for (const name of ['desired_at', 'deadline', 'time_preference']) {
      assert.equal(properties[name]?.type, 'string', name);
      assert.ok(!create?.inputSchema.required?.includes(name), name);
      assert.doesNotMatch(String(properties[name]?.description), /\bnull\b/, name);
    }
    assert.match(String(properties.desired_at?.description), /Omitted: no date\.$/);
    assert.deepEqual(properties.time_preference?.enum, [
      'vormittags',
      'nachmittags',
      'abends',
      'wochenende',
      'flexibel',
    ]);
  });

  test('outputs keep null where the answer has it, as an anyOf branch (Job.deadline)', () => {
    const job = tools.find((tool) => tool.name === 'get_job')?.outputSchema as Schema;
    const deadline = (job.properties as Record<string, Schema>).deadline;
    assert.deepEqual(deadline?.anyOf, [{ type: 'string', format: 'date-time' }, { type: 'null' }]);
    assert.ok((job.required as string[]).includes('deadline'));
  });

  test('compile under strict ajv, as JSON Schema draft-07 and 2020-12 clients read them', async () => {
    const { Ajv2020 } = await import('ajv/dist/2020.js');
    for (const make of [() => new Ajv({ strict: true }), () => new Ajv2020({ strict: true })]) {
      const ajv = make();
      addFormats.default(ajv);
      for (const tool of tools) {
        ajv.compile(tool.inputSchema);
        if (tool.outputSchema) ajv.compile(tool.outputSchema);
      }
    }
  });
});
