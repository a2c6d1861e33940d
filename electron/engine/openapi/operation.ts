import type { JsonSchema } from './schemas.js';

/** How a caller proves who it is on one operation. */
export type Security =
  /** `/v2`: `Authorization: Bearer <token>` (OAuth or personal), the scope by auth/scopes.ts. */
  | 'bearer'
  /** `/api/v2`: HTTP Basic (email and password) or a bearer token. */
  | 'support'
  /** `/oauth2/token` and `/oauth2/revoke`: the client's own credentials. */
  | 'client'
  | 'public';

/**
 * One operation as the generator knows it; document.ts adds its path
 * parameters, security and error answers, and keeps it only when the app
 * registered its route.
 */
export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The route as Fastify has it (`/v2/contacts/:id`). */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  security: Security;
  /** Query and header parameters (path parameters are added from the path). */
  parameters?: JsonSchema[];
  /** An OpenAPI request body object. */
  requestBody?: JsonSchema;
  /** Success answers: status → OpenAPI response object. */
  responses: Record<string, JsonSchema>;
  /** Error statuses beyond the family's usual ones. */
  moreErrors?: number[];
  deprecated?: boolean;
}

export const JSON_MEDIA = 'application/json';

export const jsonAnswer = (description: string, schema: JsonSchema): JsonSchema => ({ description, content: { [JSON_MEDIA]: { schema } } });
export const emptyAnswer = (description: string): JsonSchema => ({ description });
export const textAnswer = (description: string, mediaType: string): JsonSchema => ({ description, content: { [mediaType]: { schema: { type: 'string' } } } });
export const jsonBody = (schema: JsonSchema, required = true): JsonSchema => ({ required, content: { [JSON_MEDIA]: { schema } } });
export const queryParam = (name: string, description: string, schema: JsonSchema, required = false): JsonSchema => ({ name, in: 'query', description, required, schema });

/** `{"data": {…}}` with the given data. */
export const dataBody = (data: JsonSchema): JsonSchema => jsonBody({ type: 'object', required: ['data'], properties: { data, meta: { type: 'object' } } });
