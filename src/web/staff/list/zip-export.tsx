import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useId, useState } from 'react';
import { applicationUrls, type ExportJob } from '../../../shared/staff/application-api';
import { Button } from '../../ui/button';
import styles from '../shell/console.module.css';
import { formatDateTime } from '../shell/page-heading';
import { FormAlert, serverMessage } from '../shell/staff-form';
import { StepUpCancelled, useStepUp } from '../shell/step-up';
import { type ListQuery, listQueryString } from './application-filters';
import { expired, finished, formatBytes, JOB_STATUS_LABELS, POLL_MS } from './export-logic';
import list from './list.module.css';
import { listCalls, listKeys } from './list-calls';

export function ZipExport({ query }: { query: ListQuery }) {
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
        <Button
          type="button"
          variant="primary"
          disabled={start.isPending}
          onClick={() => {
            setFailure(null);
            start.mutate();
          }}
        >
          {start.isPending ? 'Starting the export...' : 'Export PDFs (ZIP)'}
        </Button>
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
