import path from 'node:path';
import { Cron } from 'croner';
import { applicationModel } from '../../shared/application/application-model';
import {
  destinationText,
  type FeedMapping,
  parseFeedMapping,
} from '../../shared/integration/feed-mapping';
import { auditKeysFromEnv } from '../audit/audit-keys';
import { COMMAND_LINE_ACTOR, createAuditTrail } from '../audit/audit-trail';
import { createChecklistService } from '../checklist/checklist-service';
import { CommandError, type CommandIo } from '../cli/command-support';
import { type CommandSpec, readOneFile, UsageError } from '../cli/run-command';
import type { Env } from '../config/env';
import { loadTenantConfig } from '../config/tenant';
import type { AppDatabase } from '../db/database';
import { problemText } from './feed-rows';
import { createFeedRunner, FeedRunRefused, type FeedRunResult } from './feed-runner';
import { FeedsDirError, loadFeedsDir } from './feed-schedules';
import { createFeedsStore, type FeedRunRow } from './feeds-store';

export const FEEDS_USAGE = `Usage:
  npm run feeds -- check FILE.json              check a mapping file and summarise it
  npm run feeds -- run FILE.json [--changed|--all] [--dry-run]
      run the feed now: the applications changed since its last run, or all submitted ones
      (the file's select when neither is given); --dry-run writes nothing and lists every value
      the file cannot take, and exits 1 when a real run would refuse
  npm run feeds -- runs [--feed NAME] [--limit N] the latest runs, newest first (20 unless --limit)
  npm run feeds -- rerun RUN_ID [FILE.json]     run again over the same range as RUN_ID, with
      FILE.json or the feed's file in FEEDS_DIR
Every run is in the runs' list and the audit trail. The database is the server's own:
DATABASE_URL, or the embedded database under DATA_DIR (stop the server first).`;

const SUBCOMMANDS = ['check', 'run', 'runs', 'rerun'] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function readMapping(
  files: readonly string[],
): Promise<{ name: string; mapping: FeedMapping }> {
  const { file, text } = await readOneFile(files, 'feed mapping');
  const name = path.basename(file);
  const result = parseFeedMapping(text, applicationModel);
  if (!result.ok)
    throw new CommandError(`${name} cannot be used:\n  ${result.problems.join('\n  ')}`);
  return { name, mapping: result.mapping };
}

function summary(name: string, mapping: FeedMapping): string[] {
  const next = mapping.schedule
    ? new Cron(mapping.schedule, { paused: true, timezone: mapping.timezone }).nextRun()
    : null;
  const filters = Object.entries(mapping.filters).map(
    ([key, value]) => `${key}=${Array.isArray(value) ? value.join(',') : String(value)}`,
  );
  return [
    `${name}: the feed ${mapping.name}, ready to run.`,
    `  select:      ${mapping.select === 'changed' ? 'applications changed since the last run' : 'every submitted application'}${filters.length > 0 ? ` (${filters.join('; ')})` : ''}`,
    `  schedule:    ${mapping.schedule ? `${mapping.schedule} (${mapping.timezone}), next at ${next?.toISOString() ?? 'never'}` : 'none (run from the command line)'}`,
    `  file:        ${mapping.file.name}, ${mapping.file.delimiter}-delimited, ${mapping.file.header ? 'with' : 'no'} header, ${mapping.file.line_ending}`,
    `  destination: ${destinationText(mapping.destination)}`,
    `  columns:     ${mapping.columns.map((column) => column.header).join(', ')}`,
  ];
}

/** The runs as a table a terminal lines up. */
export function runsTable(runs: readonly FeedRunRow[]): string[] {
  const rows = runs.map((run) => [
    run.startedAt.toISOString().slice(0, 19).replace('T', ' '),
    run.feed,
    run.mode,
    run.status,
    run.rowCount === null ? '-' : String(run.rowCount),
    run.destination ?? '-',
    run.fileName ?? (run.error ? `error: ${run.error.split('\n')[0]}` : '-'),
    run.id,
  ]);
  const header = ['started (UTC)', 'feed', 'mode', 'status', 'rows', 'destination', 'file', 'run'];
  const widths = header.map((title, index) =>
    Math.max(title.length, ...rows.map((row) => (row[index] ?? '').length)),
  );
  return [header, ...rows].map((row) =>
    row
      .map((cell, index) => cell.padEnd(widths[index] ?? 0))
      .join('  ')
      .trimEnd(),
  );
}

function report(io: CommandIo, result: FeedRunResult, dryRun: boolean): void {
  const { run, problems } = result;
  if (dryRun) {
    io.out(`Dry run of ${run.feed}: ${run.rowCount ?? 0} rows would be written; nothing was.`);
    for (const problem of problems)
      io.out(`  ${problem.blocking ? 'refused' : 'note'}: ${problemText(problem)}`);
    const blocking = problems.filter((problem) => problem.blocking).length;
    if (blocking > 0)
      throw new CommandError(
        `A real run would refuse: ${blocking} value${blocking === 1 ? '' : 's'} cannot go into the file (above).`,
      );
    return;
  }
  if (run.status === 'failed')
    throw new CommandError(`Run ${run.id} of ${run.feed} failed: ${run.error}`);
  io.out(
    `Run ${run.id} of ${run.feed}: ${run.rowCount} rows written to ${run.fileName} (${run.destination}).`,
  );
}

async function runnerFor(db: AppDatabase, env: Env, io: CommandIo) {
  const tenant = await loadTenantConfig(env.TENANT_CONFIG);
  return createFeedRunner({
    db,
    audit: createAuditTrail(db, await auditKeysFromEnv(env, io.err)),
    checklist: createChecklistService({ db, model: applicationModel, tenant }),
    destinations: { s3: env, secret: (name) => process.env[name] },
  });
}

function limitOf(value: unknown): number {
  if (value === undefined) return 20;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw new UsageError('--limit must be a whole number from 1 to 1000.');
  return limit;
}

/** `npm run feeds`: check, run and re-run feeds to the student information system. */
export const feedsCommand: CommandSpec = {
  usage: FEEDS_USAGE,
  positionals: true,
  options: {
    changed: { type: 'boolean' },
    all: { type: 'boolean' },
    'dry-run': { type: 'boolean' },
    feed: { type: 'string' },
    limit: { type: 'string' },
  },
  async prepare(values, positionals, { io, env }) {
    const [name, ...rest] = positionals;
    if (!name || !(SUBCOMMANDS as readonly string[]).includes(name))
      throw new UsageError(`Say what to do: ${SUBCOMMANDS.join(', ')}.`);
    const subcommand = name as Subcommand;
    if (values.changed === true && values.all === true)
      throw new UsageError('Give --changed or --all, not both.');
    if (subcommand !== 'run' && (values.changed || values.all || values['dry-run']))
      throw new UsageError('--changed, --all and --dry-run go with run.');
    if (subcommand !== 'runs' && (values.feed !== undefined || values.limit !== undefined))
      throw new UsageError('--feed and --limit go with runs.');

    if (subcommand === 'check') {
      const { name: file, mapping } = await readMapping(rest);
      for (const line of summary(file, mapping)) io.out(line);
      return null;
    }
    if (subcommand === 'run') {
      const { mapping } = await readMapping(rest);
      const select =
        values.all === true ? 'all' : values.changed === true ? 'changed' : mapping.select;
      const dryRun = values['dry-run'] === true;
      return async (db) => {
        const runner = await runnerFor(db, env, io);
        report(
          io,
          await runner.run({ mapping, select, dryRun, actor: COMMAND_LINE_ACTOR }),
          dryRun,
        );
      };
    }
    if (subcommand === 'runs') {
      if (rest.length > 0) throw new UsageError('runs takes no file: use --feed NAME.');
      const limit = limitOf(values.limit);
      const feed = typeof values.feed === 'string' ? values.feed : undefined;
      return async (db) => {
        const runs = await createFeedsStore(db).runs({ feed, limit });
        if (runs.length === 0) {
          io.err(feed ? `The feed ${feed} has not run yet.` : 'No feed has run yet.');
          return;
        }
        for (const line of runsTable(runs)) io.out(line);
      };
    }
    const [runId, ...files] = rest;
    if (!runId || !UUID.test(runId))
      throw new UsageError('Name the run to do again by its id (the last column of runs).');
    const given = files.length > 0 ? (await readMapping(files)).mapping : null;
    let inDir: FeedMapping[] = [];
    if (!given) {
      if (!env.FEEDS_DIR)
        throw new UsageError('Name the feed mapping file: FEEDS_DIR is not set to find it in.');
      try {
        inDir = await loadFeedsDir(env.FEEDS_DIR, applicationModel);
      } catch (error) {
        throw error instanceof FeedsDirError ? new CommandError(error.message) : error;
      }
    }
    return async (db) => {
      const runner = await runnerFor(db, env, io);
      const original = await runner.store.run(runId);
      if (!original) throw new CommandError(`There is no feed run ${runId}.`);
      const mapping = given ?? inDir.find((one) => one.name === original.feed);
      if (!mapping)
        throw new CommandError(
          `FEEDS_DIR has no mapping file for the feed ${original.feed}: name the file after the run id.`,
        );
      try {
        report(
          io,
          await runner.run({
            mapping,
            select: 'changed',
            rerunOf: original,
            actor: COMMAND_LINE_ACTOR,
          }),
          false,
        );
      } catch (error) {
        throw error instanceof FeedRunRefused ? new CommandError(error.message) : error;
      }
    };
  },
};
