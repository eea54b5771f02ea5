import { Cron } from 'croner';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { destinationText, type FeedMapping } from '../../shared/integration/feed-mapping';
import {
  FEED_RUNS_LIMIT,
  type FeedRunResponse,
  type FeedRunView,
  type FeedsOverview,
  type FeedView,
  feedRunBodySchema,
  feedUrls,
} from '../../shared/integration/feeds-api';
import { HttpError } from '../http/http-error';
import type { ZodTypeProvider } from '../http/zod-validation';
import { type StaffSessions, staffActor, staffOf } from '../staff/staff-sessions';
import { type FeedRunner, FeedRunRefused, type FeedRunResult } from './feed-runner';
import type { FeedRunRow } from './feeds-store';

export interface FeedRoutesOptions {
  sessions: StaffSessions;
  /** The mappings of FEEDS_DIR as loaded at start: a changed file is read at the next start. */
  mappings: readonly FeedMapping[];
  runner: FeedRunner;
  now?: () => Date;
}

const nameParams = z.strictObject({ name: z.string().min(1).max(63) });
const runParams = z.strictObject({ runId: z.uuid() });

const NO_FEED = 'There is no feed of that name.';
const NO_RUN = 'There is no feed run with that id.';

function nextRunAt(mapping: FeedMapping, now: Date): string | null {
  if (!mapping.schedule) return null;
  const cron = new Cron(mapping.schedule, { paused: true, timezone: mapping.timezone });
  return cron.nextRun(now)?.toISOString() ?? null;
}

function feedView(mapping: FeedMapping, now: Date): FeedView {
  return {
    name: mapping.name,
    description: mapping.description,
    schedule: mapping.schedule ?? null,
    timezone: mapping.timezone,
    nextRunAt: nextRunAt(mapping, now),
    select: mapping.select,
    destinationText: destinationText(mapping.destination),
    columnCount: mapping.columns.length,
  };
}

function feedRunView(row: FeedRunRow): FeedRunView {
  return {
    id: row.id,
    feed: row.feed,
    mode: row.mode,
    status: row.status,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    rowCount: row.rowCount,
    destination: row.destination,
    fileName: row.fileName,
    error: row.error,
    rerunOf: row.rerunOf,
    startedBy: row.startedBy,
    scheduledFor: row.scheduledFor?.toISOString() ?? null,
  };
}

function responseOf(result: FeedRunResult): FeedRunResponse {
  return {
    run: feedRunView(result.run),
    problems: result.problems.map((problem) => ({
      column: problem.column,
      header: problem.header,
      kind: problem.kind,
      value: problem.value,
      count: problem.count,
      applicationIds: problem.applicationIds,
      blocking: problem.blocking,
    })),
  };
}

/**
 * The scheduled feeds in the console (`integrations.manage`): what is configured and what ran,
 * and a dry run, a run or a re-run without a shell. Every run started here is the member's in
 * the audit trail, as the command line's are the command line's.
 */
export const feedRoutes: FastifyPluginAsync<FeedRoutesOptions> = async (
  parent,
  { sessions, mappings, runner, now = () => new Date() },
) => {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  // The lists show no secret (destinations are described without one): the permission is
  // enough, as for the webhooks. Writing a file somewhere needs a fresh second factor too.
  const read = sessions.guard('integrations.manage', { stepUp: false });
  const act = sessions.guard('integrations.manage');
  const byName = new Map(mappings.map((mapping) => [mapping.name, mapping]));

  const mappingOf = (name: string) => {
    const mapping = byName.get(name);
    if (!mapping) throw new HttpError(404, NO_FEED);
    return mapping;
  };
  const who = (request: FastifyRequest) => ({
    actor: staffActor(staffOf(request)),
    ip: request.ip,
  });
  const refusedAs409 = (error: unknown): never => {
    throw error instanceof FeedRunRefused ? new HttpError(409, error.message) : error;
  };

  app.get(feedUrls.feeds, { onRequest: read }, async (_request, reply): Promise<FeedsOverview> => {
    reply.header('cache-control', 'no-store');
    const at = now();
    const runs = await runner.store.runs({ limit: FEED_RUNS_LIMIT });
    return {
      feeds: mappings.map((mapping) => feedView(mapping, at)),
      runs: runs.map(feedRunView),
    };
  });

  app.post(
    `${feedUrls.feeds}/:name/dry-run`,
    { onRequest: act, schema: { params: nameParams } },
    async (request): Promise<FeedRunResponse> => {
      const mapping = mappingOf(request.params.name);
      return responseOf(
        await runner.run({ mapping, select: mapping.select, dryRun: true, ...who(request) }),
      );
    },
  );

  app.post(
    `${feedUrls.feeds}/:name/run`,
    { onRequest: act, schema: { params: nameParams, body: feedRunBodySchema } },
    async (request): Promise<FeedRunResponse> => {
      const mapping = mappingOf(request.params.name);
      const select = request.body?.select ?? mapping.select;
      return responseOf(await runner.run({ mapping, select, ...who(request) }));
    },
  );

  app.post(
    `${feedUrls.feeds}/runs/:runId/rerun`,
    { onRequest: act, schema: { params: runParams } },
    async (request): Promise<FeedRunResponse> => {
      const rerunOf = await runner.store.run(request.params.runId);
      if (!rerunOf) throw new HttpError(404, NO_RUN);
      const mapping = byName.get(rerunOf.feed);
      if (!mapping)
        throw new HttpError(
          409,
          `The feed ${rerunOf.feed} is no longer in FEEDS_DIR: its runs cannot be repeated.`,
        );
      const result = await runner
        .run({ mapping, select: mapping.select, rerunOf, ...who(request) })
        .catch(refusedAs409);
      return responseOf(result);
    },
  );
};
