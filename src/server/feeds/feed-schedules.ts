import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Cron } from 'croner';
import type { FormModel } from '../../shared/form/model';
import {
  destinationText,
  type FeedMapping,
  parseFeedMapping,
} from '../../shared/integration/feed-mapping';
import type { AuditActor } from '../audit/audit-trail';
import type { JobLog } from '../jobs/job-runner';
import { type Periodic, startPeriodic } from '../jobs/periodic';
import type { FeedRunner } from './feed-runner';

/** Who runs a feed when its schedule is due. */
export const FEED_SCHEDULE_ACTOR: AuditActor = { type: 'system', label: 'feed schedule' };

/** Schedules are looked at each minute, the finest a cron schedule says. */
export const FEED_SCHEDULE_INTERVAL_MS = 60_000;

/**
 * How long after its time a scheduled run is still started: a server restarting, or busy with
 * another feed, does not miss the night's run. Each time runs once whichever server claims it.
 */
export const FEED_SCHEDULE_GRACE_MS = 60 * 60_000;

/** Mapping files that cannot be used, each named with its problems. */
export class FeedsDirError extends Error {
  override name = 'FeedsDirError';
}

/** Every mapping file of the folder, each checked: all of them, or an error naming every problem. */
export async function loadFeedsDir(dir: string, model: FormModel): Promise<FeedMapping[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort();
  } catch (error) {
    throw new FeedsDirError(
      `FEEDS_DIR ${dir} cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`,
    );
  }
  const problems: string[] = [];
  const mappings: FeedMapping[] = [];
  const fileOf = new Map<string, string>();
  for (const name of names) {
    const result = parseFeedMapping(await readFile(path.join(dir, name), 'utf8'), model);
    if (!result.ok) {
      problems.push(`${name}:\n    ${result.problems.join('\n    ')}`);
      continue;
    }
    const earlier = fileOf.get(result.mapping.name);
    if (earlier) {
      problems.push(`${name}:\n    name: ${result.mapping.name} is already the name in ${earlier}`);
      continue;
    }
    fileOf.set(result.mapping.name, name);
    mappings.push(result.mapping);
  }
  if (problems.length > 0)
    throw new FeedsDirError(
      `The feed mapping files in FEEDS_DIR ${dir} have problems:\n  ${problems.join('\n  ')}`,
    );
  return mappings;
}

/** The schedule's latest time at or before `now`, if it is recent enough to run. */
export function dueTime(mapping: FeedMapping, now: Date, graceMs = FEED_SCHEDULE_GRACE_MS) {
  if (!mapping.schedule) return null;
  const cron = new Cron(mapping.schedule, { paused: true, timezone: mapping.timezone });
  // previousRuns looks before its reference: a time exactly now counts as due.
  const [latest] = cron.previousRuns(1, new Date(now.getTime() + 1));
  return latest && now.getTime() - latest.getTime() <= graceMs ? latest : null;
}

/** One look at the schedules: each due time claimed (once across servers) and run. */
export async function runDueFeeds(
  runner: FeedRunner,
  mappings: readonly FeedMapping[],
  now: Date,
): Promise<void> {
  for (const mapping of mappings) {
    const due = dueTime(mapping, now);
    if (!due) continue;
    const claimed = await runner.store.claim({
      feed: mapping.name,
      mode: mapping.select,
      destination: destinationText(mapping.destination),
      startedBy: FEED_SCHEDULE_ACTOR.label ?? 'schedule',
      scheduledFor: due,
    });
    if (claimed)
      await runner.run({ mapping, select: mapping.select, actor: FEED_SCHEDULE_ACTOR, claimed });
  }
}

/** The minute-by-minute look at the schedules on a server that runs jobs. */
export function startFeedSchedules(options: {
  runner: FeedRunner;
  mappings: readonly FeedMapping[];
  log: JobLog;
  now?: () => Date;
  intervalMs?: number;
}): Periodic {
  const now = options.now ?? (() => new Date());
  return startPeriodic(
    options.log,
    'scheduled feeds not run',
    options.intervalMs ?? FEED_SCHEDULE_INTERVAL_MS,
    () => runDueFeeds(options.runner, options.mappings, now()),
  );
}
