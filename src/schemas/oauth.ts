import { type Static, Type } from 'typebox';
import { Nullable } from './common.js';

/** An app a person connected (issue 31): what an OAuth grant gives it. */
export const AuthorizationSchema = Type.Object(
  {
    id: Type.String({ description: 'The grant; DELETE it to disconnect the app.' }),
    client_id: Type.String(),
    client_name: Nullable(Type.String()),
    scopes: Type.Array(Type.String(), { description: 'What the app may do for you.' }),
    resources: Type.Array(Type.String(), { description: 'Where its tokens work: …/v1, …/mcp.' }),
    created_at: Type.String({ format: 'date-time' }),
    expires_at: Nullable(Type.String({ format: 'date-time' })),
  },
  { $id: 'Authorization', additionalProperties: false },
);
export type Authorization = Static<typeof AuthorizationSchema>;
