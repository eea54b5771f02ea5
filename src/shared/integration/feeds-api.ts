import { z } from 'zod';
import { STAFF_API } from '../routes';

/** The runs the console lists at once, newest first. */
export const FEED_RUNS_LIMIT = 50;

/** The console's calls for scheduled feeds (`integrations.manage`). */
export const feedUrls = {
  /** GET: the configured feeds and the latest runs. */
  feeds: `${STAFF_API}/feeds`,
  /** POST: what a run would write, and every value that could not go into the file. */
  dryRun: (name: string) => `${STAFF_API}/feeds/${encodeURIComponent(name)}/dry-run`,
  /** POST: a run now, writing the file. */
  run: (name: string) => `${STAFF_API}/feeds/${encodeURIComponent(name)}/run`,
  /** POST: the run done again over the same applications, as a new run. */
  rerun: (runId: string) => `${STAFF_API}/feeds/runs/${encodeURIComponent(runId)}/rerun`,
} as const;

/** A run asked for in the console: the feed's own selection unless another is named. */
export const feedRunBodySchema = z
  .strictObject({ select: z.enum(['changed', 'all']).optional() })
  .optional();
export type FeedRunBody = z.input<typeof feedRunBodySchema>;

export interface FeedView {
  name: string;
  description: string;
  /** The cron schedule, or null for a feed run only by hand. */
  schedule: string | null;
  timezone: string;
  /** When the schedule next runs (ISO 8601). */
  nextRunAt: string | null;
  select: 'all' | 'changed';
  /** Where the file goes, without any secret. */
  destinationText: string;
  columnCount: number;
}

export interface FeedRunView {
  id: string;
  feed: string;
  mode: 'all' | 'changed' | 'dry_run';
  status: 'running' | 'succeeded' | 'failed';
  startedAt: string;
  finishedAt: string | null;
  rowCount: number | null;
  destination: string | null;
  fileName: string | null;
  error: string | null;
  rerunOf: string | null;
  startedBy: string;
  scheduledFor: string | null;
}

export interface FeedsOverview {
  feeds: FeedView[];
  runs: FeedRunView[];
}

export type FeedProblemKindView = 'unmapped' | 'too_long' | 'not_formattable' | 'needs_quoting';

/** One value of one column that a run could not (or need not) write as it is. */
export interface FeedProblemView {
  /** The column's place in the mapping, from 0. */
  column: number;
  header: string;
  kind: FeedProblemKindView;
  value: string;
  count: number;
  /** The first few applications with it, to look at. */
  applicationIds: string[];
  /** Whether a real run refuses to write because of it. */
  blocking: boolean;
}

export interface FeedRunResponse {
  run: FeedRunView;
  problems: FeedProblemView[];
}
