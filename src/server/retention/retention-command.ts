import { CommandError } from '../cli/command-support';
import { type CommandSpec, UsageError } from '../cli/run-command';
import type { StorageDriver } from '../storage/storage';
import { storageFromEnv } from '../storage/storage-from-env';
import { applyRetention, type RetentionReport } from './retention';

export const RETENTION_USAGE = `Usage:
  npm run retention -- --before YYYY-MM-DD [--dry-run]
Deletes the application data (answers, documents and their PDFs, the application PDF, validation
reports, web statuses, staff links) of
  - unsubmitted applications not changed since before that day, and
  - applications, submitted or not, whose entry term started before that day
    (Winter on January 1, Summer on May 1, Fall on August 1),
and prefilled answer sets, sessions and password-reset links that expired before it. Accounts stay.
The day starts at 00:00 UTC and may not be in the future.
--dry-run reports what would be deleted and changes nothing.`;

/** `2026-01-01` as 00:00 UTC of that day; anything else, or a day after today, is a usage error. */
export function parseRetentionDay(text: string, now: Date): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  const day = match
    ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])))
    : null;
  if (!match || !day || day.toISOString().slice(0, 10) !== text.trim())
    throw new UsageError(`--before must be a date as YYYY-MM-DD, not "${text}".`);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  if (day.getTime() > today)
    throw new UsageError(`--before ${text.trim()} is in the future: nothing can be older than it.`);
  return day;
}

/** The report, one kind per line, as the command prints it. */
export function formatRetentionReport(
  report: RetentionReport,
  day: string,
  dryRun: boolean,
): string[] {
  const lines: Array<[string, number]> = [
    [`unsubmitted applications not changed since ${day}`, report.unsubmittedApplications],
    [`applications of entry terms started before ${day}`, report.closedCycleApplications],
    ['  of them submitted', report.closedCycleSubmitted],
    ['document answers', report.documentAnswers],
    ['issued upload keys', report.documentUploads],
    ['application PDFs', report.applicationPdfs],
    ['validation reports', report.validationReports],
    ['web statuses', report.webStatuses],
    ['staff links', report.serviceTokens],
    ['stored files', report.files],
    ['expired prefilled answer sets', report.temporaryAnswerSets],
    ['ended sessions', report.sessions],
    ['expired password-reset links', report.passwordResets],
  ];
  return [
    dryRun
      ? `Dry run: nothing was changed. Retention before ${day} would delete:`
      : `Retention before ${day} deleted:`,
    ...lines.map(([label, count]) => `  ${label}: ${count}`),
  ];
}

export interface RetentionCommandOptions {
  /** Replaces the storage chosen from the environment (tests). */
  storage?: StorageDriver;
  now?: () => Date;
}

/**
 * `npm run retention`: deletes old application data and says what it deleted (or, with
 * --dry-run, what it would delete). The report goes to standard output.
 */
export function retentionCommand(options: RetentionCommandOptions = {}): CommandSpec {
  return {
    usage: RETENTION_USAGE,
    options: {
      before: { type: 'string' },
      'dry-run': { type: 'boolean' },
    },
    async prepare(values) {
      if (typeof values.before !== 'string') throw new UsageError('--before is required.');
      const day = parseRetentionDay(values.before, options.now?.() ?? new Date());
      const dryRun = values['dry-run'] === true;
      const dayText = day.toISOString().slice(0, 10);

      return async (db, { env, io }) => {
        // The storage's only warning (an unset signing secret) is about uploads, not deletions.
        const storage = options.storage ?? (await storageFromEnv(env, { warn: () => {} }));
        const report = await applyRetention(db, storage, {
          limits: { unsubmittedBefore: day, cycleStartedBefore: day },
          dryRun,
        });
        for (const line of formatRetentionReport(report, dayText, dryRun)) io.out(line);
        if (report.filesNotDeleted.length > 0) {
          throw new CommandError(
            `${report.filesNotDeleted.length} stored files could not be removed (their rows are ` +
              `deleted); remove these keys from the storage by hand:\n  ${report.filesNotDeleted.join('\n  ')}`,
          );
        }
      };
    },
  };
}
