import { type Static, Type } from 'typebox';
import { CategorySchema, Nullable, PriceBand, RefTo, StringEnum } from './common.js';

export const CATEGORY_TYPES = ['service', 'borrowing'] as const;
export type CategoryType = (typeof CATEGORY_TYPES)[number];

export const CategoriesQuery = Type.Object(
  {
    lang: Type.Optional(
      StringEnum(['de', 'en'] as const, {
        description:
          'Language of names and descriptions; without it, Accept-Language chooses (German or English; English when it names neither).',
      }),
    ),
    type: Type.Optional(
      StringEnum(CATEGORY_TYPES, {
        description:
          'service: only job figures (per hour, per job); borrowing: only lending figures (per day, per week, deposit). Omit for both.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CategoriesQuery = Static<typeof CategoriesQuery>;

const Band = (what: string) => Nullable(PriceBand(what), { description: `${what}; null when there is no data yet.` });

export const ServicePricingSchema = Type.Object(
  {
    open_jobs: Type.Integer({ minimum: 0 }),
    completed_jobs: Type.Integer({ minimum: 0 }),
    price_per_hour_eur: Band('Price per helper-hour of open and completed jobs'),
    price_per_job_eur: Band('Price of open jobs'),
  },
  { additionalProperties: false, description: 'Jobs for helpers in this category.' },
);

export const BorrowingPricingSchema = Type.Object(
  {
    listings: Type.Integer({ minimum: 0, description: 'Available listings.' }),
    price_per_day_eur: Band('Daily price of available listings'),
    price_per_week_eur: Band('Weekly price of available listings that offer one'),
    deposit_eur: Band('Deposit of available listings'),
  },
  { additionalProperties: false, description: 'Items to borrow in this category.' },
);

export const CategoryItemSchema = Type.Object(
  {
    id: RefTo(CategorySchema),
    name: Type.String({ description: 'Name in the requested language.' }),
    description: Type.String({ description: 'What belongs here, in the requested language.' }),
    service: Type.Optional(ServicePricingSchema),
    borrowing: Type.Optional(BorrowingPricingSchema),
  },
  {
    $id: 'CategoryItem',
    additionalProperties: false,
    description:
      'A category with live price ranges. `service` is present unless type=borrowing, `borrowing` unless type=service.',
  },
);
export type CategoryItem = Static<typeof CategoryItemSchema>;

export const CategoryList = Type.Object(
  {
    data: Type.Array(RefTo(CategoryItemSchema)),
    total: Type.Integer(),
    lang: StringEnum(['de', 'en'] as const),
    type: Nullable(StringEnum(CATEGORY_TYPES)),
    currency: Type.Literal('EUR'),
  },
  { additionalProperties: false },
);
export type CategoryList = Static<typeof CategoryList>;
