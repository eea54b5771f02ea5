import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type {
  FeedProblemView,
  FeedRunResponse,
  FeedRunView,
  FeedView,
} from '../../../shared/integration/feeds-api';
import { Button } from '../../ui/button';
import { applicationPath } from '../common/application-paths';
import { ConfirmDialog } from '../shell/confirm-dialog';
import styles from '../shell/console.module.css';
import { formatDateTime, PageHeading } from '../shell/page-heading';
import { FormAlert, serverMessage } from '../shell/staff-form';
import { StepUpCancelled, useStepUp } from '../shell/step-up';
import local from './feeds.module.css';
import { feedsCalls, feedsKeys } from './feeds-calls';

const MODE_LABELS: Record<FeedRunView['mode'], string> = {
  all: 'All applications',
  changed: 'Changed since last run',
  dry_run: 'Dry run',
};

const STATUS_LABELS: Record<FeedRunView['status'], string> = {
  running: 'Running',
  succeeded: 'Succeeded',
  failed: 'Failed',
};

const PROBLEM_LABELS: Record<FeedProblemView['kind'], string> = {
  unmapped: 'Not in the map',
  too_long: 'Longer than the column allows',
  not_formattable: 'Cannot be formatted',
  needs_quoting: 'Needs quoting, which the file does not do',
};

const rows = (count: number | null) => `${count ?? 0} row${count === 1 ? '' : 's'}`;

/** What a run did, in one sentence for the status line. */
function runSentence(run: FeedRunView): string {
  if (run.status === 'failed') return `The run of ${run.feed} failed: ${run.error ?? 'no reason'}`;
  return `Ran ${run.feed}: ${rows(run.rowCount)} written to ${run.fileName ?? 'the destination'}.`;
}

/** Scheduled feeds (`integrations.manage`): what is configured, what ran, and runs by hand. */
function FeedsPage() {
  const queryClient = useQueryClient();
  const stepUp = useStepUp();
  const overview = useQuery({
    queryKey: feedsKeys.overview,
    queryFn: feedsCalls.overview,
    refetchOnMount: 'always',
  });
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [dryRun, setDryRun] = useState<FeedRunResponse | null>(null);
  const [confirming, setConfirming] = useState<FeedRunView | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: feedsKeys.overview });
  const start = () => {
    setStatus('');
    setFailure(null);
  };
  const failed = (error: unknown) => {
    if (!(error instanceof StepUpCancelled)) setFailure(serverMessage(error));
  };

  const dry = useMutation({
    mutationFn: (name: string) => stepUp.run(() => feedsCalls.dryRun(name)),
    onMutate: () => {
      start();
      setDryRun(null);
    },
    onSuccess: async (result) => {
      setDryRun(result);
      setStatus(`Dry run of ${result.run.feed} finished.`);
      await refresh();
    },
    onError: failed,
  });
  const run = useMutation({
    mutationFn: (name: string) => stepUp.run(() => feedsCalls.run(name)),
    onMutate: start,
    onSuccess: async (result) => {
      setStatus(runSentence(result.run));
      await refresh();
    },
    onError: failed,
  });
  const rerun = useMutation({
    mutationFn: (runId: string) => stepUp.run(() => feedsCalls.rerun(runId)),
    onMutate: start,
    onSuccess: async (result) => {
      setStatus(runSentence(result.run));
      await refresh();
    },
    onError: failed,
  });
  const busy = dry.isPending || run.isPending || rerun.isPending;

  return (
    <>
      <PageHeading
        title="Feeds"
        intro="Files of applications written on a schedule for other systems. A dry run, a run and a run again ask you to confirm it is you."
      />
      <p role="status" className={`${styles.statusLine} ${local.wrap}`}>
        {status}
      </p>
      <FormAlert message={failure} />
      {overview.isPending ? (
        <p className={styles.muted}>Loading the feeds...</p>
      ) : overview.isError ? (
        <FormAlert message={serverMessage(overview.error)} />
      ) : (
        <>
          <section className={styles.section} aria-labelledby="feeds-title">
            <h2 id="feeds-title" className={styles.sectionTitle}>
              Configured feeds
            </h2>
            {overview.data.feeds.length === 0 ? (
              <p className={styles.muted}>
                No feeds are configured. A feed is a mapping file in the folder the server's{' '}
                <code>FEEDS_DIR</code> setting names, read when the server starts; check the files
                with <code>npm run feeds -- check</code>.
              </p>
            ) : (
              <ul className={styles.cardList}>
                {overview.data.feeds.map((feed) => (
                  <FeedCard
                    key={feed.name}
                    feed={feed}
                    busy={busy}
                    dryRunning={dry.isPending && dry.variables === feed.name}
                    running={run.isPending && run.variables === feed.name}
                    onDryRun={() => dry.mutate(feed.name)}
                    onRun={() => run.mutate(feed.name)}
                  />
                ))}
              </ul>
            )}
          </section>
          {dryRun ? <DryRunResult result={dryRun} /> : null}
          <section className={styles.section} aria-labelledby="feed-runs-title">
            <h2 id="feed-runs-title" className={styles.sectionTitle}>
              Runs
            </h2>
            {overview.data.runs.length === 0 ? (
              <p className={styles.muted}>No feed has run yet.</p>
            ) : (
              <RunsTable
                runs={overview.data.runs}
                configured={new Set(overview.data.feeds.map((feed) => feed.name))}
                busy={busy}
                onRunAgain={(row) => {
                  start();
                  setConfirming(row);
                }}
              />
            )}
          </section>
        </>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title="Run this again?"
        description={
          confirming
            ? `The same applications as the run of ${confirming.feed} started ${formatDateTime(confirming.startedAt)} are written again, as they are now, to a new file at ${confirming.destination ?? 'the destination'}.`
            : undefined
        }
        action="Run again"
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          const row = confirming;
          setConfirming(null);
          if (row) rerun.mutate(row.id);
        }}
      />
    </>
  );
}

function FeedCard({
  feed,
  busy,
  dryRunning,
  running,
  onDryRun,
  onRun,
}: {
  feed: FeedView;
  busy: boolean;
  dryRunning: boolean;
  running: boolean;
  onDryRun: () => void;
  onRun: () => void;
}) {
  const titleId = `feed-${feed.name}`;
  return (
    <li className={styles.card} aria-labelledby={titleId}>
      <div className={local.cardHead}>
        <h3 id={titleId} className={local.cardTitle}>
          {feed.name}
        </h3>
      </div>
      {feed.description ? <p className={local.wrap}>{feed.description}</p> : null}
      <dl className={`${styles.facts} ${local.facts}`}>
        <dt>Schedule</dt>
        <dd>
          {feed.schedule ? (
            <>
              <code>{feed.schedule}</code> ({feed.timezone}), next{' '}
              <time dateTime={feed.nextRunAt ?? undefined}>{formatDateTime(feed.nextRunAt)}</time>
            </>
          ) : (
            'None: run by hand only'
          )}
        </dd>
        <dt>Reads</dt>
        <dd>{feed.select === 'all' ? 'All submitted applications' : 'Changed since last run'}</dd>
        <dt>Destination</dt>
        <dd className={local.wrap}>{feed.destinationText}</dd>
        <dt>Columns</dt>
        <dd>{feed.columnCount}</dd>
      </dl>
      <div className={styles.inlineButtons}>
        <Button
          type="button"
          variant="secondary"
          className={styles.smallButton}
          disabled={busy}
          aria-label={`Dry run ${feed.name}`}
          onClick={onDryRun}
        >
          {dryRunning ? 'Dry running...' : 'Dry run'}
        </Button>
        <Button
          type="button"
          variant="primary"
          className={styles.smallButton}
          disabled={busy}
          aria-label={`Run now ${feed.name}`}
          onClick={onRun}
        >
          {running ? 'Running...' : 'Run now'}
        </Button>
      </div>
    </li>
  );
}

/** What a dry run found: taken to, so it is read out as soon as it is there. */
function DryRunResult({ result }: { result: FeedRunResponse }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);
  const { run, problems } = result;
  return (
    <section className={styles.section} aria-labelledby="dry-run-title">
      <h2 id="dry-run-title" ref={heading} tabIndex={-1} className={styles.sectionTitle}>
        Dry run of {run.feed}
      </h2>
      {run.status === 'failed' ? (
        <p className={local.wrap}>
          <span className={local.failed}>The dry run failed:</span> {run.error}
        </p>
      ) : problems.length === 0 ? (
        <p>Nothing unmapped: {rows(run.rowCount)} would be written.</p>
      ) : (
        <>
          <p>
            {rows(run.rowCount)} would be written.{' '}
            {problems.some((problem) => problem.blocking)
              ? 'A run writes nothing until the values marked as stopping it are mapped.'
              : 'None of these values stops a run: each is written as the column says.'}
          </p>
          {/* Each example links to its application: on a phone the frame scrolls, and the links let
              the keyboard reach and scroll it. */}
          <div className={styles.tableFrame}>
            <table className={`${styles.table} ${local.wideTable}`}>
              <caption>Values that could not go into the file as they are, by column</caption>
              <colgroup>
                <col className={local.colColumn} />
                <col className={local.colProblem} />
                <col className={local.colValue} />
                <col className={local.colCount} />
                <col />
                <col className={local.colStops} />
              </colgroup>
              <thead>
                <tr>
                  <th scope="col">Column</th>
                  <th scope="col">Problem</th>
                  <th scope="col">Value</th>
                  <th scope="col">Applications</th>
                  <th scope="col">Examples</th>
                  <th scope="col">Stops a run</th>
                </tr>
              </thead>
              <tbody>
                {problems.map((problem) => (
                  <tr key={`${problem.column}-${problem.kind}-${problem.value}`}>
                    <td>
                      {problem.header} (column {problem.column + 1})
                    </td>
                    <td>{PROBLEM_LABELS[problem.kind]}</td>
                    <td>
                      <code>{problem.value}</code>
                    </td>
                    <td>{problem.count}</td>
                    <td>
                      <ul className={local.ids}>
                        {problem.applicationIds.map((id) => (
                          <li key={id}>
                            <Link to={applicationPath(id, '')}>{id}</Link>
                          </li>
                        ))}
                      </ul>
                    </td>
                    <td>{problem.blocking ? 'Yes' : 'No'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

/** The runs, newest first. A configured feed's name links to its card, which also gives the
 * keyboard something to reach in the frame that scrolls on a phone. */
function RunsTable({
  runs,
  configured,
  busy,
  onRunAgain,
}: {
  runs: FeedRunView[];
  configured: ReadonlySet<string>;
  busy: boolean;
  onRunAgain: (run: FeedRunView) => void;
}) {
  return (
    <div className={styles.tableFrame}>
      <table className={`${styles.table} ${local.wideTable}`}>
        <caption>Feed runs, newest first</caption>
        <colgroup>
          <col className={local.colFeed} />
          <col className={local.colStarted} />
          <col className={local.colStatus} />
          <col className={local.colRows} />
          <col className={local.colFile} />
          <col />
          <col className={local.colAction} />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Feed</th>
            <th scope="col">Started</th>
            <th scope="col">Status</th>
            <th scope="col">Rows</th>
            <th scope="col">File</th>
            <th scope="col">Error</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {runs.map((row) => (
            <tr key={row.id}>
              <td className={local.wrap}>
                {configured.has(row.feed) ? <a href={`#feed-${row.feed}`}>{row.feed}</a> : row.feed}
                <br />
                <span className={styles.muted}>{MODE_LABELS[row.mode]}</span>
              </td>
              <td>
                <time dateTime={row.startedAt}>{formatDateTime(row.startedAt)}</time>
                <br />
                <span className={styles.muted}>
                  by {row.startedBy}
                  {row.rerunOf ? ', a run again' : ''}
                </span>
              </td>
              <td className={row.status === 'failed' ? local.failed : undefined}>
                {STATUS_LABELS[row.status]}
              </td>
              <td>{row.rowCount ?? ''}</td>
              <td className={local.wrap}>
                {row.fileName ?? ''}
                {row.destination ? (
                  <>
                    <br />
                    <span className={styles.muted}>{row.destination}</span>
                  </>
                ) : null}
              </td>
              <td>{row.error ? <pre className={local.error}>{row.error}</pre> : null}</td>
              <td>
                {row.mode !== 'dry_run' && row.status !== 'running' ? (
                  <Button
                    type="button"
                    variant="secondary"
                    className={styles.smallButton}
                    disabled={busy}
                    aria-label={`Run again ${row.feed}, started ${formatDateTime(row.startedAt)}`}
                    onClick={() => onRunAgain(row)}
                  >
                    Run again
                  </Button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export { FeedsPage as Component };
