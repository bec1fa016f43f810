import { type Static, Type } from 'typebox';
import { Nullable, PlainText } from './common.js';

const Address = Type.Object(
  {
    street: PlainText(200, { minLength: 2, description: 'Street and number.' }),
    plz: Type.String({ pattern: '^[0-9A-Za-z -]{3,10}$', maxLength: 10, description: 'Postal code.' }),
    city: PlainText(100, { minLength: 1, description: 'City.' }),
    country: Type.String({ pattern: '^[A-Z]{2}$', maxLength: 2, description: 'Country, ISO 3166-1 alpha-2 (DE).' }),
  },
  {
    additionalProperties: false,
    description: 'The address where the provider can be served (ladungsfähige Anschrift).',
  },
);

const Register = Type.Object(
  {
    court: PlainText(100, { minLength: 2, description: 'Register court, e.g. Amtsgericht Mannheim.' }),
    number: Type.String({
      pattern: '^[A-Za-z0-9 ./-]{1,40}$',
      maxLength: 40,
      description: 'Register number, e.g. HRB 123456.',
    }),
  },
  { additionalProperties: false, description: 'The commercial register entry, where registered.' },
);

const VAT_ID = Type.String({
  pattern: '^[A-Z]{2}[A-Za-z0-9]{2,13}$',
  maxLength: 15,
  description: 'VAT id, e.g. DE123456789.',
});

/** PUT /v1/me/provider: the whole set each time (a replacement, not a patch). */
export const ProviderBody = Type.Object(
  {
    legal_name: PlainText(200, { minLength: 2, description: 'The legal name (company or trader).' }),
    address: Address,
    email: Type.String({ format: 'email', maxLength: 254, description: 'E-mail for quick contact (§ 5 DDG).' }),
    phone: Type.String({
      pattern: '^\\+?[0-9 ()/-]{6,30}$',
      maxLength: 31,
      description: 'Telephone for quick contact.',
    }),
    register: Type.Optional(Nullable(Register)),
    vat_id: Type.Optional(Nullable(VAT_ID)),
    self_certification: Type.Literal(true, {
      description:
        'Your statement that you offer only products and services that comply with Union law (DSA Art. 30(1)(e)); must be true.',
    }),
  },
  { additionalProperties: false },
);
export type ProviderBody = Static<typeof ProviderBody>;

export const ProviderSchema = Type.Object(
  {
    legal_name: Type.String(),
    address: Address,
    email: Type.String({ format: 'email' }),
    phone: Type.String(),
    register: Nullable(Register),
    vat_id: Nullable(VAT_ID),
    self_certified_at: Type.String({ format: 'date-time', description: 'When you last gave the self-certification.' }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  {
    $id: 'Provider',
    additionalProperties: false,
    description: 'Your legal details as a commercial provider (§ 5 DDG). Jobs and listings show the public part.',
  },
);
export type Provider = Static<typeof ProviderSchema>;

export const PublicProviderSchema = Type.Object(
  { legal_name: Type.String(), address: Address, register: Nullable(Register) },
  {
    $id: 'PublicProvider',
    additionalProperties: false,
    description: 'Who offers this when a commercial account does (§ 5 DDG); null for private people.',
  },
);
export type PublicProvider = Static<typeof PublicProviderSchema>;

/** The fields a commercial account must give before it posts jobs or listings. */
export const REQUIRED_PROVIDER_FIELDS = ['legal_name', 'address', 'email', 'phone', 'self_certification'] as const;
