import { and, asc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { ApiScope } from '../../shared/integration/api-scopes';
import type { AppDatabase } from '../db/database';
import type { Executor } from '../db/executor';
import { apiAccessTokens, apiClients } from '../db/schema';

export type ApiClientRow = typeof apiClients.$inferSelect;

/** A live token's client, as a request's authentication finds it. */
export interface TokenHolder {
  id: string;
  clientId: string;
  name: string;
  /** The token's scopes (a subset of the client's). */
  scopes: ApiScope[];
  rateLimitPerMinute: number;
}

/** Integrators' clients and the access tokens issued to them, secrets kept as SHA-256 only. */
export function createApiClientsStore(db: AppDatabase) {
  return {
    async insert(
      values: {
        clientId: string;
        name: string;
        scopes: ApiScope[];
        secretHash: string;
        createdByLabel: string;
        rateLimitPerMinute?: number;
      },
      tx: Executor = db,
    ): Promise<ApiClientRow | null> {
      const [row] = await tx
        .insert(apiClients)
        .values(values)
        .onConflictDoNothing({ target: apiClients.name })
        .returning();
      return row ?? null;
    },

    async list(tx: Executor = db): Promise<ApiClientRow[]> {
      return tx.select().from(apiClients).orderBy(asc(apiClients.name));
    },

    /** A client by its public `client_id` or its name (the command line names clients). */
    async find(idOrName: string, tx: Executor = db): Promise<ApiClientRow | null> {
      const [row] = await tx
        .select()
        .from(apiClients)
        .where(sql`${apiClients.clientId} = ${idOrName} or ${apiClients.name} = ${idOrName}`)
        .limit(1);
      return row ?? null;
    },

    async byId(id: string, tx: Executor = db): Promise<ApiClientRow | null> {
      const [row] = await tx.select().from(apiClients).where(eq(apiClients.id, id));
      return row ?? null;
    },

    /** A new secret: every token of the old one ends with it. */
    async replaceSecret(id: string, secretHash: string, tx: Executor = db): Promise<boolean> {
      const rows = await tx
        .update(apiClients)
        .set({ secretHash, secretCreatedAt: sql`now()` })
        .where(and(eq(apiClients.id, id), isNull(apiClients.revokedAt)))
        .returning({ id: apiClients.id });
      await tx.delete(apiAccessTokens).where(eq(apiAccessTokens.clientId, id));
      return rows.length > 0;
    },

    async revoke(id: string, tx: Executor = db): Promise<boolean> {
      const rows = await tx
        .update(apiClients)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(apiClients.id, id), isNull(apiClients.revokedAt)))
        .returning({ id: apiClients.id });
      await tx.delete(apiAccessTokens).where(eq(apiAccessTokens.clientId, id));
      return rows.length > 0;
    },

    async insertToken(
      values: { tokenHash: string; clientId: string; scopes: ApiScope[]; expiresAt: Date },
      tx: Executor = db,
    ): Promise<void> {
      await tx.insert(apiAccessTokens).values(values);
    },

    /** The client holding a live token, or null for an unknown, expired or revoked one. */
    async holderOf(tokenHash: string, tx: Executor = db): Promise<TokenHolder | null> {
      const [row] = await tx
        .select({
          id: apiClients.id,
          clientId: apiClients.clientId,
          name: apiClients.name,
          scopes: apiAccessTokens.scopes,
          rateLimitPerMinute: apiClients.rateLimitPerMinute,
        })
        .from(apiAccessTokens)
        .innerJoin(apiClients, eq(apiClients.id, apiAccessTokens.clientId))
        .where(
          and(
            eq(apiAccessTokens.tokenHash, tokenHash),
            gt(apiAccessTokens.expiresAt, sql`now()`),
            isNull(apiClients.revokedAt),
          ),
        );
      return row ? { ...row, scopes: row.scopes as ApiScope[] } : null;
    },

    /** Drops tokens that expired; they already open nothing. */
    async deleteExpiredTokens(tx: Executor = db): Promise<void> {
      await tx.delete(apiAccessTokens).where(lt(apiAccessTokens.expiresAt, sql`now()`));
    },
  };
}
export type ApiClientsStore = ReturnType<typeof createApiClientsStore>;
