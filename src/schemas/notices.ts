import { type Static, Type } from 'typebox';
import { Nullable, PageFields, PagingQuery, PlainText, StringEnum } from './common.js';

/** What may be reported: what a caller can see. */
export const REPORT_ABOUT = ['job', 'listing', 'helper', 'review', 'message'] as const;
/** What a decision may be about: what may be reported, or the account itself (a suspension by an operator). */
export const DECISION_ABOUT = [...REPORT_ABOUT, 'account'] as const;
/** The reasons a report gives (DSA Art. 16(2)); `other` with an explanation. */
export const REPORT_REASONS = [
  'illegal_content',
  'scam_or_fraud',
  'unsafe_product',
  'discrimination_or_hate',
  'privacy_violation',
  'intellectual_property',
  'prohibited_item',
  'other',
] as const;
export const MODERATION_ACTIONS = ['remove', 'restrict_visibility', 'suspend_account', 'no_action'] as const;
export const MODERATION_GROUNDS = ['legal', 'terms'] as const;

const About = Type.Object(
  {
    type: StringEnum(REPORT_ABOUT, { description: 'What is reported.' }),
    id: Type.String({
      pattern: '^[a-z]{3}_[0-9a-f]{16}$',
      maxLength: 20,
      description: 'Its id, e.g. job_4f9c2a7b1d3e5f60.',
    }),
  },
  { additionalProperties: false },
);

const DecisionAbout = Type.Object(
  {
    type: StringEnum(DECISION_ABOUT, { description: 'What it is about; account: the account itself.' }),
    id: Type.String({ description: 'Its id.' }),
  },
  { additionalProperties: false },
);

export const ReportBody = Type.Object(
  {
    about: About,
    reason: StringEnum(REPORT_REASONS, { description: 'Why it is reported.' }),
    explanation: PlainText(2000, {
      minLength: 10,
      description: 'What is wrong, and the law or term concerned.',
    }),
    reporter_email: Type.Optional(
      Type.String({ format: 'email', maxLength: 254, description: 'Where the outcome is e-mailed (optional).' }),
    ),
    good_faith: Type.Literal(true, {
      description: 'The report is accurate and complete to your knowledge (Art. 16(2)(d)).',
    }),
  },
  { additionalProperties: false },
);
export type ReportBody = Static<typeof ReportBody>;

const Outcome = Type.Object(
  {
    action: StringEnum(MODERATION_ACTIONS),
    ground: StringEnum(MODERATION_GROUNDS),
    explanation: Type.String(),
    decided_at: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false, description: 'What the platform decided.' },
);

export const ReportSchema = Type.Object(
  {
    id: Type.String({ description: 'Report id, prefixed `rpt_`.' }),
    about: About,
    reason: StringEnum(REPORT_REASONS),
    status: StringEnum(['received', 'decided'] as const),
    created_at: Type.String({ format: 'date-time' }),
    outcome: Nullable(Outcome),
    report_token: Type.Optional(
      Type.String({
        description: 'Shown once: X-Report-Token for GET /v1/reports/{id}.',
      }),
    ),
  },
  { $id: 'Report', additionalProperties: false, description: 'A notice (DSA Art. 16) and its outcome.' },
);
export type Report = Static<typeof ReportSchema>;

export const ReportIdParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64, description: 'Report id.' }) },
  { additionalProperties: false },
);

export const AppealSchema = Type.Object(
  {
    id: Type.String({ description: 'Appeal id, prefixed `apl_`.' }),
    decision_id: Type.String(),
    text: Type.String(),
    status: StringEnum(['pending', 'upheld', 'reversed'] as const),
    created_at: Type.String({ format: 'date-time' }),
    decided_at: Nullable(Type.String({ format: 'date-time' })),
    explanation: Nullable(Type.String(), { description: 'Why the platform upheld or reversed its decision.' }),
  },
  { $id: 'Appeal', additionalProperties: false },
);
export type Appeal = Static<typeof AppealSchema>;

export const ModerationDecisionSchema = Type.Object(
  {
    id: Type.String({ description: 'Decision id, prefixed `mod_`.' }),
    about: DecisionAbout,
    action: StringEnum(MODERATION_ACTIONS, {
      description:
        'remove, restrict_visibility: out of every public read (you still see it); suspend_account: keys refused but here.',
    }),
    ground: StringEnum(MODERATION_GROUNDS, {
      description: 'legal (a law) or terms (terms of service).',
    }),
    explanation: Type.String({ description: 'Facts, and the provision or term applied.' }),
    automated: Type.Boolean({ description: 'Never, so far.' }),
    prompted_by_report: Type.Boolean({ description: 'The reporter is never named.' }),
    created_at: Type.String({ format: 'date-time' }),
    reversed_at: Nullable(Type.String({ format: 'date-time' }), { description: 'When an appeal reversed it.' }),
    redress: Type.Object(
      {
        appeal_until: Type.String({
          format: 'date-time',
          description: 'Six months.',
        }),
        appeal: Type.String({ description: 'DSA Art. 20.' }),
        out_of_court: Type.String({ description: 'DSA Art. 21.' }),
        court: Type.String({ description: 'Courts.' }),
      },
      { additionalProperties: false },
    ),
    appeal: Nullable(RefAppeal()),
  },
  {
    $id: 'ModerationDecision',
    additionalProperties: false,
    description: 'A statement of reasons (DSA Art. 17) about your content or account.',
  },
);
export type ModerationDecision = Static<typeof ModerationDecisionSchema>;

function RefAppeal() {
  return Type.Unsafe<Appeal>({ $ref: 'Appeal' });
}

export const ModerationDecisionList = Type.Object(
  {
    data: Type.Array(Type.Unsafe<ModerationDecision>({ $ref: 'ModerationDecision' })),
    ...PageFields,
  },
  { additionalProperties: false },
);

export const ListQuery = Type.Object(
  { limit: PagingQuery.limit, offset: PagingQuery.offset },
  { additionalProperties: false },
);

export const AppealBody = Type.Object(
  {
    text: PlainText(4000, { minLength: 10, description: 'Why the decision is wrong; what the platform should know.' }),
  },
  { additionalProperties: false },
);

export const DecisionIdParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64, description: 'Decision id.' }) },
  { additionalProperties: false },
);

const CountBy = (keys: readonly string[], description: string) =>
  Type.Object(Object.fromEntries(keys.map((k) => [k, Type.Integer({ minimum: 0 })])), {
    additionalProperties: false,
    description,
  });

export const TransparencySchema = Type.Object(
  {
    generated_at: Type.String({ format: 'date-time' }),
    months: Type.Array(
      Type.Object(
        {
          month: Type.String({ description: 'YYYY-MM (UTC).' }),
          notices: CountBy(REPORT_REASONS, 'Notices received, by reason.'),
          decisions: CountBy(MODERATION_ACTIONS, 'Decisions, by action.'),
          decisions_by_ground: CountBy(MODERATION_GROUNDS, 'Decisions, by ground.'),
          median_hours_to_decision: Nullable(Type.Number({ minimum: 0 }), {
            description: 'Of the notices decided that month.',
          }),
          appeals: Type.Integer({ minimum: 0, description: 'Appeals received.' }),
          reversals: Type.Integer({ minimum: 0, description: 'Decisions reversed on appeal.' }),
        },
        { additionalProperties: false },
      ),
      { description: 'Newest first.' },
    ),
  },
  { $id: 'Transparency', additionalProperties: false },
);
export type Transparency = Static<typeof TransparencySchema>;
