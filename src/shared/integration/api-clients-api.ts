import { z } from 'zod';
import { STAFF_API } from '../routes';
import { API_SCOPE_NAMES, type ApiScope, isApiScope } from './api-scopes';

/** The console's calls for integrators' API clients (`integrations.manage`). */
export const apiClientUrls = {
  /** GET: every client; POST: a new client, its secret in the answer this once. */
  clients: `${STAFF_API}/integrations/clients`,
  rotate: (id: string) => `${STAFF_API}/integrations/clients/${encodeURIComponent(id)}/rotate`,
  revoke: (id: string) => `${STAFF_API}/integrations/clients/${encodeURIComponent(id)}/revoke`,
} as const;

export const API_CLIENT_NAME_MAX_LENGTH = 80;
/** The default of the schema (api_clients.rate_limit_per_minute). */
export const API_CLIENT_DEFAULT_RATE_LIMIT = 600;
export const API_CLIENT_MAX_RATE_LIMIT = 100_000;

export const API_CLIENT_FORM_MESSAGES = {
  nameRequired: 'Enter a name for the client.',
  nameTooLong: `A client's name is at most ${API_CLIENT_NAME_MAX_LENGTH} characters.`,
  nameControl: "A client's name cannot contain control characters.",
  scopesRequired: 'Choose at least one scope.',
  scopeUnknown: (names: readonly string[]) => `Unknown scope: ${names.join(', ')}.`,
  rateLimit: `The rate limit is a whole number of calls a minute, 1 to ${API_CLIENT_MAX_RATE_LIMIT.toLocaleString('en-US')}.`,
} as const;

/** A client as the console shows it: never a secret. */
export interface ApiClientView {
  id: string;
  client_id: string;
  name: string;
  scopes: ApiScope[];
  rate_limit_per_minute: number;
  created_by: string;
  /** ISO 8601. */
  created_at: string;
  /** When the current secret was made (at creation or the last rotation). */
  secret_created_at: string;
  revoked_at: string | null;
}

/** A new client or a new secret: the secret is in this answer and nowhere else, ever. */
export interface ApiClientSecretResponse {
  client: ApiClientView;
  client_secret: string;
}

export const apiClientName = z
  .string({ error: API_CLIENT_FORM_MESSAGES.nameRequired })
  .trim()
  .min(1, API_CLIENT_FORM_MESSAGES.nameRequired)
  .max(API_CLIENT_NAME_MAX_LENGTH, API_CLIENT_FORM_MESSAGES.nameTooLong)
  .refine((name) => !/\p{Cc}/u.test(name), API_CLIENT_FORM_MESSAGES.nameControl);

export const createApiClientSchema = z.strictObject({
  name: apiClientName,
  scopes: z
    .array(z.string().max(100), { error: API_CLIENT_FORM_MESSAGES.scopesRequired })
    .max(API_SCOPE_NAMES.length * 2)
    .superRefine((scopes, context) => {
      const unknown = scopes.filter((scope) => !isApiScope(scope));
      if (unknown.length > 0)
        context.addIssue({
          code: 'custom',
          message: API_CLIENT_FORM_MESSAGES.scopeUnknown(unknown),
        });
      else if (scopes.length === 0)
        context.addIssue({ code: 'custom', message: API_CLIENT_FORM_MESSAGES.scopesRequired });
    })
    // The canonical order, each once, as the command line's parseScopeList gives them.
    .transform((scopes) => API_SCOPE_NAMES.filter((scope) => scopes.includes(scope))),
  rate_limit_per_minute: z
    .number({ error: API_CLIENT_FORM_MESSAGES.rateLimit })
    .int(API_CLIENT_FORM_MESSAGES.rateLimit)
    .min(1, API_CLIENT_FORM_MESSAGES.rateLimit)
    .max(API_CLIENT_MAX_RATE_LIMIT, API_CLIENT_FORM_MESSAGES.rateLimit)
    .optional(),
});
export type CreateApiClientBody = z.input<typeof createApiClientSchema>;

export const apiClientIdParams = z.strictObject({ clientId: z.uuid('Not an API client id.') });
