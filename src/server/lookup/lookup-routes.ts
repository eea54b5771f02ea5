import type { FastifyPluginAsync } from 'fastify';
import { LOOKUP_MAX_RESULTS } from '../../shared/constants';
import { LOOKUP_MESSAGES, LOOKUP_PATH } from '../../shared/lookup/lookup-api';
import {
  type LookupRecord,
  type LookupResult,
  lookupFindQuerySchema,
} from '../../shared/lookup/lookup-schemas';
import type { AppDatabase } from '../db/database';
import { HttpError } from '../http/http-error';
import type { ZodTypeProvider } from '../http/zod-validation';
import type { Limit, RateLimiter } from '../rate-limit/rate-limiter';
import type { AddressProvider } from './address-provider';
import { findListRecord, searchList } from './list-search';
import { importSharedLists } from './shared-lists';

/**
 * Generous for a person (typing sends at most about two searches a second) and for a school's
 * computer room behind one address, tight for a script copying the lists.
 */
export const LOOKUP_LIMIT: Limit = { name: 'lookup:ip', max: 300, windowSeconds: 60 };

export const ADDRESSES_UNAVAILABLE_MESSAGE = 'Address suggestions are not available right now.';

export interface LookupOptions {
  db: AppDatabase;
  limiter: RateLimiter;
  addresses: AddressProvider;
  /**
   * Development only: once the server is ready, import the shared lists into empty categories in
   * the background, so `npm start` has schools to search without a manual step.
   */
  importSharedListsFrom?: string;
}

/** GET /lookup/find: no session needed (anonymous visitors fill in the form too), limited per address. */
export const lookupRoutes: FastifyPluginAsync<LookupOptions> = async (parent, options) => {
  const { db, limiter, addresses } = options;
  const app = parent.withTypeProvider<ZodTypeProvider>();

  app.get(
    LOOKUP_PATH,
    { schema: { querystring: lookupFindQuerySchema } },
    async (request, reply) => {
      await limiter.consume([{ limit: LOOKUP_LIMIT, subject: request.ip }]);
      const { category, text, id, max_results: maxResults } = request.query;
      let answer: LookupRecord | LookupResult[];
      if (id !== undefined) {
        const record =
          category === 'address'
            ? await fromAddressProvider(() => addresses.find(id))
            : await findListRecord(db, category, id);
        if (!record) throw new HttpError(404, LOOKUP_MESSAGES.notFound);
        answer = record;
      } else {
        const max = maxResults ?? LOOKUP_MAX_RESULTS;
        answer =
          category === 'address'
            ? await fromAddressProvider(() => addresses.suggest(text ?? '', max))
            : await searchList(db, category, text ?? '', max);
      }
      // Lists change seldom; a browser going back over what it typed need not ask again.
      reply.header('cache-control', 'private, max-age=300');
      return answer;
    },
  );

  const dir = options.importSharedListsFrom;
  if (dir) {
    app.addHook('onReady', async () => {
      void importSharedLists(db, { dir, onlyIntoEmpty: true }).then(
        (summaries) => {
          for (const summary of summaries) {
            app.log.info(
              { category: summary.category, imported: summary.imported, dir },
              'development: imported a shared school list into the empty lookup table',
            );
          }
        },
        (error: unknown) =>
          app.log.warn({ err: error }, 'development: shared school lists not imported'),
      );
    });
  }
};

/** A geocoding service may be down; the form then lets the applicant type (spec 000 section 7). */
async function fromAddressProvider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const unavailable = new HttpError(503, ADDRESSES_UNAVAILABLE_MESSAGE);
    // The error handler logs the 503; the provider's own error travels with it.
    unavailable.cause = error;
    throw unavailable;
  }
}
