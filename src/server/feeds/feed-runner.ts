import { destinationText, type FeedMapping } from '../../shared/integration/feed-mapping';
import type { AuditActor, AuditEntry } from '../audit/audit-trail';
import type { ChecklistService } from '../checklist/checklist-service';
import type { AppDatabase } from '../db/database';
import { createExportsStore, EXPORT_BATCH_SIZE } from '../exports/exports-store';
import { lazy } from '../runtime/lazy';
import type { DestinationContext } from './feed-destinations';
import {
  buildFeedRows,
  type FeedProblem,
  type FeedRecord,
  feedFileName,
  problemText,
  readsChecklist,
  renderFeedFile,
} from './feed-rows';
import { createFeedsStore, type FeedRange, type FeedRunRow } from './feeds-store';

export interface FeedRunnerDeps {
  db: AppDatabase;
  audit: { record(entry: AuditEntry): Promise<void> };
  destinations: DestinationContext;
  /** Needed only by a mapping with checklist columns. */
  checklist?: Pick<ChecklistService, 'forApplications'>;
  now?: () => Date;
}

export interface FeedRunRequest {
  mapping: FeedMapping;
  /** What a new run reads; a re-run reads what the run it repeats read. */
  select: 'all' | 'changed';
  dryRun?: boolean;
  actor: AuditActor;
  /** Where a person asking for the run was, for the audit trail. */
  ip?: string | null;
  /** A run to do again over the same range. */
  rerunOf?: FeedRunRow;
  /** A scheduled time's run row, already claimed by this server. */
  claimed?: FeedRunRow;
}

export interface FeedRunResult {
  run: FeedRunRow;
  problems: FeedProblem[];
}

/** The AWS SDK and the SSH client load with the first file written, not with the server. */
const destinations = lazy(() => import('./feed-destinations'));

/** A failed run's error lists this many problems, then how many more. */
const PROBLEMS_IN_ERROR = 20;

/** Refused before anything is recorded: asked for something that cannot be run. */
export class FeedRunRefused extends Error {
  override name = 'FeedRunRefused';
}

export function createFeedRunner(deps: FeedRunnerDeps) {
  const store = createFeedsStore(deps.db);
  const exportsStore = createExportsStore(deps.db);
  const now = deps.now ?? (() => new Date());

  /**
   * What a new run reads: every submitted application, or those changed since the feed's last
   * successful run. A change whose transaction is still running is the next run's.
   */
  async function nextRange(feed: string, select: 'all' | 'changed'): Promise<FeedRange> {
    const to = await store.changeLogPosition();
    const from = select === 'changed' ? await store.lastReadPosition(feed) : null;
    return {
      fromSeq: from?.seq ?? null,
      fromSnapshot: from?.snapshot ?? null,
      toSeq: Math.max(from?.seq ?? 0, to.seq),
      toSnapshot: to.snapshot,
    };
  }

  async function records(ids: readonly string[], withChecklist: boolean): Promise<FeedRecord[]> {
    const out: FeedRecord[] = [];
    for (let start = 0; start < ids.length; start += EXPORT_BATCH_SIZE) {
      const batch = ids.slice(start, start + EXPORT_BATCH_SIZE);
      const [applications, sisIds, checklists] = await Promise.all([
        exportsStore.applications(batch),
        store.sisIds(batch),
        withChecklist && deps.checklist ? deps.checklist.forApplications([...batch]) : null,
      ]);
      for (const application of applications) {
        out.push({
          id: application.id,
          email: application.email,
          receiptNumber: application.confirmationNumber,
          submittedAt: application.submittedAt,
          sisId: sisIds.get(application.id) ?? null,
          answers: application.answers,
          decision: application.decision,
          coursework: application.coursework,
          checklist: checklists?.get(application.id) ?? null,
        });
      }
    }
    return out;
  }

  /**
   * One run: a row in feed_runs from the start (so a crash leaves it visibly unfinished), the
   * applications read, the rows built and checked, the file written, the row finished, the
   * audit entry. A dry run stops before writing and keeps what it found.
   */
  async function run(request: FeedRunRequest): Promise<FeedRunResult> {
    const { mapping, rerunOf } = request;
    if (rerunOf && rerunOf.mode === 'dry_run')
      throw new FeedRunRefused('A dry run wrote nothing to repeat: run the feed instead.');
    if (rerunOf && rerunOf.feed !== mapping.name)
      throw new FeedRunRefused(
        `Run ${rerunOf.id} is of the feed ${rerunOf.feed}, not ${mapping.name}.`,
      );
    const select: 'all' | 'changed' = rerunOf
      ? (rerunOf.mode as 'all' | 'changed')
      : request.select;
    const dryRun = request.dryRun === true;
    const destination = destinationText(mapping.destination);
    const range: FeedRange = rerunOf
      ? {
          fromSeq: rerunOf.fromSeq,
          fromSnapshot: rerunOf.fromSnapshot,
          toSeq: rerunOf.toSeq,
          toSnapshot: rerunOf.toSnapshot,
        }
      : await nextRange(mapping.name, select);
    let row: FeedRunRow;
    if (request.claimed) {
      row = request.claimed;
      await store.setRange(row.id, range);
    } else {
      row = await store.start({
        feed: mapping.name,
        mode: dryRun ? 'dry_run' : select,
        ...range,
        destination: dryRun ? null : destination,
        rerunOf: rerunOf?.id ?? null,
        startedBy: request.actor.label ?? request.actor.type,
      });
    }
    let problems: FeedProblem[] = [];
    let finished: FeedRunRow;
    try {
      const ids =
        range.fromSeq === null
          ? await store.submittedIds()
          : await store.changedIds(
              { seq: range.fromSeq, snapshot: range.fromSnapshot },
              { seq: range.toSeq ?? 0, snapshot: range.toSnapshot },
            );
      const built = buildFeedRows(mapping, await records(ids, readsChecklist(mapping)));
      problems = built.problems;
      if (dryRun) {
        finished = await store.finish(row.id, {
          status: 'succeeded',
          rowCount: built.rows.length,
          fileName: null,
          error: null,
          destination: null,
        });
      } else {
        const blocking = problems.filter((problem) => problem.blocking);
        if (blocking.length > 0) {
          const listed = blocking.slice(0, PROBLEMS_IN_ERROR).map(problemText);
          const more = blocking.length - listed.length;
          throw new Error(
            `Nothing was written: ${blocking.length} value${blocking.length === 1 ? '' : 's'} cannot go into the file.\n${listed.join('\n')}${more > 0 ? `\n… and ${more} more (a dry run lists them all)` : ''}`,
          );
        }
        const fileName = feedFileName(mapping, now(), row.id);
        const { writeFeedFile } = await destinations();
        await writeFeedFile(
          mapping.destination,
          deps.destinations,
          fileName,
          Buffer.from(renderFeedFile(mapping, built), 'utf8'),
        );
        finished = await store.finish(row.id, {
          status: 'succeeded',
          rowCount: built.rows.length,
          fileName,
          error: null,
          destination,
        });
      }
    } catch (error) {
      finished = await store.finish(row.id, {
        status: 'failed',
        rowCount: null,
        fileName: null,
        error: error instanceof Error ? error.message : String(error),
        destination: dryRun ? null : destination,
      });
    }
    await deps.audit.record({
      actor: request.actor,
      ip: request.ip ?? null,
      action: 'feed.run',
      detail: {
        feed: mapping.name,
        run_id: finished.id,
        mode: finished.mode,
        status: finished.status,
        from_seq: finished.fromSeq,
        to_seq: finished.toSeq,
        rows: finished.rowCount,
        destination: finished.destination,
        file_name: finished.fileName,
        rerun_of: finished.rerunOf,
        scheduled_for: finished.scheduledFor?.toISOString() ?? null,
        error: finished.error,
      },
    });
    return { run: finished, problems };
  }

  return { run, store };
}

export type FeedRunner = ReturnType<typeof createFeedRunner>;
