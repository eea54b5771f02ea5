import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { ApiScope } from '../../shared/integration/api-scopes';
import { randomToken, sha256 } from '../accounts/secrets';
import type { ApiClientRow, ApiClientsStore, TokenHolder } from './api-clients-store';

/** An access token lives an hour: a stolen one is short-lived, and a client asks again. */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
export const CLIENT_NAME_MAX_LENGTH = 80;

export const API_CLIENT_MESSAGES = {
  nameTaken: 'A client with this name already exists. Choose another name.',
  nameInvalid: `A client's name is 1 to ${CLIENT_NAME_MAX_LENGTH} characters of text.`,
  noScopes: 'Give the client at least one scope.',
  notFound: 'No API client has this id or name.',
  revoked: 'This client has been revoked.',
} as const;

/** A client as the console and the command line show it: never a secret. */
export interface ApiClientSummary {
  id: string;
  client_id: string;
  name: string;
  scopes: ApiScope[];
  rate_limit_per_minute: number;
  created_by: string;
  created_at: string;
  secret_created_at: string;
  revoked_at: string | null;
}

export function apiClientSummary(row: ApiClientRow): ApiClientSummary {
  return {
    id: row.id,
    client_id: row.clientId,
    name: row.name,
    scopes: row.scopes as ApiScope[],
    rate_limit_per_minute: row.rateLimitPerMinute,
    created_by: row.createdByLabel,
    created_at: row.createdAt.toISOString(),
    secret_created_at: row.secretCreatedAt.toISOString(),
    revoked_at: row.revokedAt?.toISOString() ?? null,
  };
}

export class ApiClientError extends Error {
  override name = 'ApiClientError';
}

function newSecret(): string {
  return `ics_${randomToken()}`;
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export interface IssuedToken {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}

/** Making, rotating and revoking clients, and the client credentials grant (RFC 6749 §4.4). */
export function createApiClients(store: ApiClientsStore) {
  return {
    /** A new client and its secret, which is shown this once and stored only as SHA-256. */
    async create(input: {
      name: string;
      scopes: ApiScope[];
      createdBy: string;
      rateLimitPerMinute?: number;
    }): Promise<{ client: ApiClientSummary; secret: string }> {
      const name = input.name.trim();
      if (!name || name.length > CLIENT_NAME_MAX_LENGTH || /\p{Cc}/u.test(name))
        throw new ApiClientError(API_CLIENT_MESSAGES.nameInvalid);
      if (input.scopes.length === 0) throw new ApiClientError(API_CLIENT_MESSAGES.noScopes);
      const secret = newSecret();
      const row = await store.insert({
        clientId: `cli_${randomBytes(12).toString('hex')}`,
        name,
        scopes: input.scopes,
        secretHash: sha256(secret),
        createdByLabel: input.createdBy,
        ...(input.rateLimitPerMinute ? { rateLimitPerMinute: input.rateLimitPerMinute } : {}),
      });
      if (!row) throw new ApiClientError(API_CLIENT_MESSAGES.nameTaken);
      return { client: apiClientSummary(row), secret };
    },

    async list(): Promise<ApiClientSummary[]> {
      return (await store.list()).map(apiClientSummary);
    },

    /** A client by its row id, its `client_id` or its name. */
    async find(idOrName: string): Promise<ApiClientRow | null> {
      const byName = await store.find(idOrName);
      if (byName) return byName;
      return /^[0-9a-f-]{36}$/i.test(idOrName) ? store.byId(idOrName) : null;
    },

    /** A new secret for a live client; the old one and its tokens stop working at once. */
    async rotate(idOrName: string): Promise<{ client: ApiClientSummary; secret: string }> {
      const row = await this.find(idOrName);
      if (!row) throw new ApiClientError(API_CLIENT_MESSAGES.notFound);
      if (row.revokedAt) throw new ApiClientError(API_CLIENT_MESSAGES.revoked);
      const secret = newSecret();
      await store.replaceSecret(row.id, sha256(secret));
      const updated = (await store.byId(row.id)) ?? row;
      return { client: apiClientSummary(updated), secret };
    },

    /** Ends a client for good: its tokens stop working at once. */
    async revoke(idOrName: string): Promise<ApiClientSummary> {
      const row = await this.find(idOrName);
      if (!row) throw new ApiClientError(API_CLIENT_MESSAGES.notFound);
      await store.revoke(row.id);
      return apiClientSummary((await store.byId(row.id)) ?? row);
    },

    /**
     * The client credentials grant: a token for a live client whose secret matches, with the
     * scopes asked for (all of the client's when none are), or null when the client or its
     * secret is wrong. Scopes the client does not hold are `invalid_scope`.
     */
    async issueToken(
      clientId: string,
      secret: string,
      requested: ApiScope[] | null,
    ): Promise<
      IssuedToken | { error: 'invalid_client' } | { error: 'invalid_scope'; scopes: string[] }
    > {
      const row = await store.find(clientId);
      // The hash is compared even for an unknown client, so timing tells nothing.
      const expected = row && row.clientId === clientId ? row.secretHash : sha256('no client');
      const matches = sameHash(sha256(secret), expected);
      if (!row || row.clientId !== clientId || row.revokedAt || !matches)
        return { error: 'invalid_client' };
      const held = row.scopes as ApiScope[];
      const scopes = requested ?? held;
      const beyond = scopes.filter((scope) => !held.includes(scope));
      if (beyond.length > 0) return { error: 'invalid_scope', scopes: beyond };
      const token = `ita_${randomToken()}`;
      await store.insertToken({
        tokenHash: sha256(token),
        clientId: row.id,
        scopes,
        expiresAt: new Date(Date.now() + ACCESS_TOKEN_TTL_SECONDS * 1000),
      });
      return {
        access_token: token,
        token_type: 'Bearer',
        expires_in: ACCESS_TOKEN_TTL_SECONDS,
        scope: scopes.join(' '),
      };
    },

    /** The client behind a bearer token, or null when it is unknown, expired or revoked. */
    async holderOf(token: string): Promise<TokenHolder | null> {
      if (!token.startsWith('ita_') || token.length > 200) return null;
      return store.holderOf(sha256(token));
    },
  };
}
export type ApiClients = ReturnType<typeof createApiClients>;
