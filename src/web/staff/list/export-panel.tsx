import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useId, useState } from 'react';
import { applicationUrls, type ExportJob } from '../../../shared/staff/application-api';
import buttonStyles from '../../ui/button.module.css';
import { cx } from '../../ui/cx';
import styles from '../shell/console.module.css';
import { formatDateTime } from '../shell/page-heading';
import { downloadFile } from '../shell/secrets';
import { FormAlert, serverMessage } from '../shell/staff-form';
import { StepUpCancelled, useStepUp } from '../shell/step-up';
import {
  chosenColumnsText,
  csvExportHref,
  type ListQuery,
  listQueryString,
  toggledColumns,
} from './application-filters';
import list from './list.module.css';
import { type ExportColumn, listCalls, listKeys } from './list-calls';

/** How often a running ZIP export is asked how far it has come. */
const POLL_MS = 1500;

const JOB_STATUS_LABELS: Record<ExportJob['status'], string> = {
  queued: 'Waiting to start',
  running: 'Making the PDFs',
  completed: 'Ready',
  failed: 'Failed',
};

function finished(job: ExportJob | undefined): boolean {
  return job?.status === 'completed' || job?.status === 'failed';
}

function expired(job: ExportJob, now: number): boolean {
  return job.expires_at !== null && new Date(job.expires_at).getTime() <= now;
}

/**
 * Exports of the list as it is filtered now (every page of it): a CSV of the chosen columns, or
 * a ZIP of the application PDFs made by a job. Both need a fresh second factor: the step-up
 * dialog asks for it when the server says so, as the audit log's CSV does.
 */
export function ExportPanel({ query, total }: { query: ListQuery; total: number | null }) {
  return (
    <section className={styles.section} aria-labelledby="exports-title">
      <h2 id="exports-title" className={styles.sectionTitle}>
        Export this list
      </h2>
      <p className={styles.muted}>
        Exports hold every application the search and filters find
        {total === null ? '' : ` (${total.toLocaleString('en-US')} now)`}, not only this page. You
        may be asked to confirm it is you.
      </p>
      <div className={list.exportGrid}>
        <CsvExport query={query} />
        <ZipExport query={query} />
      </div>
    </section>
  );
}

function groupsOf(columns: readonly ExportColumn[]): [string, ExportColumn[]][] {
  const groups = new Map<string, ExportColumn[]>();
  for (const column of columns) {
    groups.set(column.group, [...(groups.get(column.group) ?? []), column]);
  }
  return [...groups.entries()];
}

function CsvExport({ query }: { query: ListQuery }) {
  const stepUp = useStepUp();
  const columns = useQuery({ queryKey: listKeys.exportColumns, queryFn: listCalls.exportColumns });
  const [chosen, setChosen] = useState<string[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const choice = chosen ?? columns.data?.default ?? [];
  const keys = new Set(choice);
  const chooserId = useId();

  const download = useMutation({
    mutationFn: (picked: string[]) =>
      stepUp.run(() => listCalls.file(csvExportHref(applicationUrls.csvExport, query, picked))),
    onSuccess: ({ blob, fileName }) => {
      downloadFile(blob, fileName ?? 'applications.csv');
      setStatus('The CSV file is downloading.');
    },
    onError: (error) => {
      if (!(error instanceof StepUpCancelled)) setFailure(serverMessage(error));
    },
  });

  const toggle = (key: string, on: boolean) => {
    if (keys.has(key) === on) return;
    setChosen(toggledColumns(choice, key, on));
  };
  const labels = new Map((columns.data?.columns ?? []).map((column) => [column.key, column.label]));

  return (
    <div className={list.exportBox}>
      <h3 className={styles.subTitle}>CSV file</h3>
      <FormAlert message={failure} />
      <p role="status" className={styles.statusLine}>
        {status}
      </p>
      {columns.isPending ? (
        <p className={styles.muted}>Loading the columns...</p>
      ) : columns.isError ? (
        <FormAlert message={serverMessage(columns.error)} />
      ) : (
        <>
          <details className={list.columns}>
            <summary>
              Choose columns ({choice.length} of {columns.data.columns.length} chosen, at most{' '}
              {columns.data.max})
            </summary>
            <div className={list.inlineButtons}>
              {columns.data.columns.length <= columns.data.max ? (
                <button
                  type="button"
                  className={cx(buttonStyles.button, buttonStyles.secondary, styles.smallButton)}
                  onClick={() => setChosen(columns.data.columns.map((column) => column.key))}
                >
                  Choose all
                </button>
              ) : null}
              <button
                type="button"
                className={cx(buttonStyles.button, buttonStyles.secondary, styles.smallButton)}
                onClick={() => setChosen([])}
              >
                Choose none
              </button>
              <button
                type="button"
                className={cx(buttonStyles.button, buttonStyles.secondary, styles.smallButton)}
                onClick={() => setChosen(null)}
              >
                Back to the usual columns
              </button>
            </div>
            <p className={styles.muted}>
              The file’s columns, in the order chosen:{' '}
              {chosenColumnsText(choice.map((key) => labels.get(key) ?? key))}
            </p>
            <div id={chooserId} className={list.columnGroups}>
              {groupsOf(columns.data.columns).map(([group, items]) => (
                <fieldset key={group} className={list.fieldset}>
                  <legend className={list.legend}>{group}</legend>
                  <div className={list.columnChecks}>
                    {items.map((column) => (
                      <label key={column.key} className={list.check}>
                        <input
                          type="checkbox"
                          checked={keys.has(column.key)}
                          onChange={(event) => toggle(column.key, event.target.checked)}
                        />
                        {column.label}
                      </label>
                    ))}
                  </div>
                </fieldset>
              ))}
            </div>
          </details>
          <div className={styles.formActions}>
            <button
              type="button"
              className={cx(buttonStyles.button, buttonStyles.primary)}
              disabled={download.isPending}
              onClick={() => {
                setStatus('');
                if (choice.length === 0 || choice.length > columns.data.max) {
                  setFailure(
                    choice.length === 0
                      ? 'Choose at least one column.'
                      : `Choose at most ${columns.data.max} columns.`,
                  );
                  return;
                }
                setFailure(null);
                download.mutate(choice);
              }}
            >
              {download.isPending ? 'Preparing the CSV...' : 'Download CSV'}
            </button>
          </div>
        </>
      )}
    </div>
  );
}

function ZipExport({ query }: { query: ListQuery }) {
  const stepUp = useStepUp();
  const queryClient = useQueryClient();
  const [jobId, setJobId] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const recent = useQuery({ queryKey: listKeys.zipJobs, queryFn: listCalls.zipJobs });

  const start = useMutation({
    mutationFn: () =>
      stepUp.run(() => listCalls.startZip(listQueryString(query, { paging: false }))),
    onSuccess: async (job) => {
      queryClient.setQueryData(listKeys.zipJob(job.id), job);
      setJobId(job.id);
      await queryClient.invalidateQueries({ queryKey: listKeys.zipJobs, exact: true });
    },
    onError: (error) => {
      if (!(error instanceof StepUpCancelled)) setFailure(serverMessage(error));
    },
  });

  return (
    <div className={list.exportBox}>
      <h3 className={styles.subTitle}>PDFs in a ZIP file</h3>
      <p className={styles.muted}>
        One PDF per application and an index CSV. It is made in the background; the download works
        for a limited time.
      </p>
      <FormAlert message={failure} />
      <div className={styles.formActions}>
        <button
          type="button"
          className={cx(buttonStyles.button, buttonStyles.primary)}
          disabled={start.isPending}
          onClick={() => {
            setFailure(null);
            start.mutate();
          }}
        >
          {start.isPending ? 'Starting the export...' : 'Export PDFs (ZIP)'}
        </button>
      </div>
      {jobId ? <JobProgress id={jobId} /> : null}
      <RecentJobs
        jobs={recent.data}
        failure={recent.isError ? serverMessage(recent.error) : null}
      />
    </div>
  );
}

/** The export just started: its progress, then its download or why it failed. */
function JobProgress({ id }: { id: string }) {
  const queryClient = useQueryClient();
  const progressId = useId();
  const job = useQuery({
    queryKey: listKeys.zipJob(id),
    queryFn: async () => {
      const current = await listCalls.zipJob(id);
      if (finished(current)) {
        void queryClient.invalidateQueries({ queryKey: listKeys.zipJobs, exact: true });
      }
      return current;
    },
    refetchInterval: (state) => (finished(state.state.data) ? false : POLL_MS),
  });
  const data = job.data;
  // Read out when the export changes state, not at every PDF.
  const announcement = !data
    ? ''
    : data.status === 'completed'
      ? 'The ZIP file is ready to download.'
      : data.status === 'failed'
        ? `The export failed. ${data.message ?? ''}`.trim()
        : 'The export has started.';

  return (
    <div className={list.job}>
      <div role="status" className="visually-hidden">
        {announcement}
      </div>
      {job.isError ? <FormAlert message={serverMessage(job.error)} /> : null}
      {data ? (
        <>
          <label htmlFor={progressId} className={list.progressLabel}>
            {JOB_STATUS_LABELS[data.status]}: {data.done} of {data.total} applications
          </label>
          <progress
            id={progressId}
            className={list.progress}
            max={Math.max(1, data.total)}
            value={data.status === 'completed' ? Math.max(1, data.total) : data.done}
          />
          {data.status === 'completed' ? <JobDownload job={data} /> : null}
          {data.status === 'failed' ? (
            <FormAlert message={data.message ?? 'The export failed. Start a new one.'} />
          ) : null}
        </>
      ) : null}
    </div>
  );
}

function JobDownload({ job }: { job: ExportJob }) {
  if (expired(job, Date.now())) {
    return <p className={styles.muted}>Expired; start a new export.</p>;
  }
  return (
    <p className={list.download}>
      <ZipDownloadLink job={job}>
        Download the ZIP file
        {job.byte_size !== null ? ` (${formatBytes(job.byte_size)})` : ''}
      </ZipDownloadLink>
      {job.expires_at ? (
        <span className={styles.muted}> Available until {formatDateTime(job.expires_at)}.</span>
      ) : null}
    </p>
  );
}

/**
 * A finished export's download: a plain link, so the browser streams the file to disk however
 * large. The second factor was asked when the export started; the file is only this member's.
 */
function ZipDownloadLink({ job, children }: { job: ExportJob; children: ReactNode }) {
  return (
    <a href={applicationUrls.zipDownload(encodeURIComponent(job.id))} download>
      {children}
    </a>
  );
}

function RecentJobs({ jobs, failure }: { jobs: ExportJob[] | undefined; failure: string | null }) {
  if (failure) return <FormAlert message={failure} />;
  if (!jobs || jobs.length === 0) return null;
  const now = Date.now();
  return (
    <>
      <h4 className={list.recentTitle}>Your recent ZIP exports</h4>
      <ul className={list.recent}>
        {jobs.map((job) => (
          <li key={job.id}>
            <time dateTime={job.created_at}>{formatDateTime(job.created_at)}</time>:{' '}
            {job.status === 'completed' && !expired(job, now) ? (
              <>
                <ZipDownloadLink job={job}>Download ({job.total} applications)</ZipDownloadLink>
                {job.expires_at ? (
                  <span className={styles.muted}> until {formatDateTime(job.expires_at)}</span>
                ) : null}
              </>
            ) : job.status === 'completed' ? (
              <span className={styles.muted}>Expired</span>
            ) : (
              <span>
                {JOB_STATUS_LABELS[job.status]}
                {job.status === 'running' ? ` (${job.done} of ${job.total})` : ''}
              </span>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}

function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
