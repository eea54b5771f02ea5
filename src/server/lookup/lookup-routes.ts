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
import { importDefaultLists } from './default-lists';
import { findListRecord } from './list-search';
import { createSchoolSearch, type SchoolSearch } from './school-search';

/**
 * Generous for a person (typing sends at most about two searches a second) and for a school's
 * computer room behind one address, tight for a script copying the lists.
 */
export const LOOKUP_LIMIT: Limit = { name: 'lookup:ip', max: 300, windowSeconds: 60 };

export const ADDRESSES_UNAVAILABLE_MESSAGE = 'Address suggestions are not available right now.';

export interface LookupOptions {
  db: AppDatabase;
  /** Counts in memory (decision 039): a search must not write to the database. */
  limiter: RateLimiter;
  /** The school lists in memory; one per app, so every search shares the built index. */
  schools?: SchoolSearch;
  addresses: AddressProvider;
  /**
   * Lists to import into empty categories before the server is ready (the lists that ship with
   * the project), so a fresh server has schools to find; a list already there is never replaced.
   */
  defaultListsDir?: string;
}

/** GET /lookup/find: no session needed (anonymous visitors fill in the form too), limited per address. */
export const lookupRoutes: FastifyPluginAsync<LookupOptions> = async (parent, options) => {
  const { db, limiter, addresses } = options;
  const schools = options.schools ?? createSchoolSearch(db);
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
            : await schools.search(category, text ?? '', max);
      }
      // Lists change seldom; a browser going back over what it typed need not ask again.
      reply.header('cache-control', 'private, max-age=300');
      return answer;
    },
  );

  const dir = options.defaultListsDir;
  if (dir) {
    // Awaited, so a ready server has its lists. Only a first start finds a table empty; a list
    // that cannot be imported is logged and leaves the search empty, never the server down.
    app.addHook('onReady', async () => {
      try {
        for (const summary of await importDefaultLists(db, { dir, onlyIntoEmpty: true })) {
          app.log.info(
            { category: summary.category, imported: summary.imported, dir },
            'imported a default school list into the empty lookup table',
          );
          schools.changed(summary.category);
        }
      } catch (error) {
        app.log.warn({ err: error, dir }, 'default school lists not imported');
      }
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
