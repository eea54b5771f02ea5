import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { actorName } from '../../../shared/staff/actor-names';
import type { AuditEventView } from '../../../shared/staff/staff-api';
import authStyles from '../../auth/auth-form.module.css';
import { FieldErrors, TextField } from '../../auth/text-field';
import buttonStyles from '../../ui/button.module.css';
import { cx } from '../../ui/cx';
import { LoadingIndicator } from '../../ui/loading-indicator';
import styles from '../shell/console.module.css';
import { formatDateTime, PageHeading } from '../shell/page-heading';
import { downloadFile } from '../shell/secrets';
import { meQueryOptions } from '../shell/staff-calls';
import { FormAlert, FormErrorSummary, serverMessage, useStaffForm } from '../shell/staff-form';
import { StepUpCancelled, useStepUp } from '../shell/step-up';
import { auditCalls, auditKeys, auditSearch } from './audit-calls';
import {
  type AuditFilterValues,
  actionLabel,
  auditFilterForm,
  coveredText,
  detailText,
  filtersFromSearch,
  filterValues,
  searchForValues,
} from './audit-filters';

const FIELDS = {
  actor: { id: 'audit-actor', label: 'Person' },
  application: { id: 'audit-application', label: 'Application id' },
  action: { id: 'audit-action', label: 'Action' },
  from: { id: 'audit-from', label: 'From' },
  to: { id: 'audit-to', label: 'To' },
} as const;

function AuditPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = filtersFromSearch(searchParams);
  const filterKey = auditSearch(filters);
  return (
    <>
      <PageHeading
        title="Audit log"
        intro="Every sign-in, change and export in the console, newest first. Entries cannot be changed or removed."
      />
      <FilterForm
        key={filterKey}
        initial={filterValues(filters)}
        onApply={(values) => setSearchParams(searchForValues(values))}
      />
      <AuditEntries key={`entries${filterKey}`} />
    </>
  );
}

function FilterForm({
  initial,
  onApply,
}: {
  initial: AuditFilterValues;
  onApply: (values: AuditFilterValues) => void;
}) {
  const form = useStaffForm<AuditFilterValues>(auditFilterForm, initial, FIELDS);
  const actions = useQuery({ queryKey: auditKeys.auditActions, queryFn: auditCalls.auditActions });
  const action = form.field('action');
  const hasFilters = Object.values(initial).some((value) => value !== '');

  return (
    <section className={styles.section} aria-labelledby="filters-title">
      <h2 id="filters-title" className={styles.sectionTitle}>
        Filters
      </h2>
      <FormErrorSummary entries={form.summary} ref={form.summaryRef} />
      <form noValidate aria-labelledby="filters-title" onSubmit={form.submit(onApply)}>
        <div className={styles.formRow}>
          <TextField
            id={FIELDS.actor.id}
            label={FIELDS.actor.label}
            hint="An email address, or part of one."
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            binding={form.field('actor')}
          />
          <TextField
            id={FIELDS.application.id}
            label={FIELDS.application.label}
            autoComplete="off"
            spellCheck={false}
            binding={form.field('application')}
          />
          <div className={authStyles.field}>
            <label htmlFor={FIELDS.action.id} className={authStyles.label}>
              {FIELDS.action.label}
            </label>
            <select
              id={FIELDS.action.id}
              className={styles.select}
              value={action.value}
              aria-invalid={action.errors.length > 0 || undefined}
              aria-describedby={`${FIELDS.action.id}-error`}
              onChange={(event) => action.onValueChange(event.target.value)}
            >
              <option value="">Any action</option>
              {(actions.data ?? (action.value ? [action.value] : [])).map((name) => (
                <option key={name} value={name}>
                  {actionLabel(name)}
                </option>
              ))}
            </select>
            <FieldErrors id={`${FIELDS.action.id}-error`} errors={action.errors} />
          </div>
          <TextField
            id={FIELDS.from.id}
            label={FIELDS.from.label}
            type="date"
            binding={form.field('from')}
          />
          <TextField
            id={FIELDS.to.id}
            label={FIELDS.to.label}
            type="date"
            binding={form.field('to')}
          />
        </div>
        <div className={styles.formActions}>
          <button type="submit" className={cx(buttonStyles.button, buttonStyles.primary)}>
            Apply filters
          </button>
          {hasFilters ? (
            <Link to="?" className={cx(buttonStyles.button, buttonStyles.secondary)}>
              Clear filters
            </Link>
          ) : null}
        </div>
      </form>
    </section>
  );
}

function AuditEntries() {
  const [searchParams] = useSearchParams();
  const filters = filtersFromSearch(searchParams);
  const { data: me } = useQuery({ ...meQueryOptions, enabled: false });
  const canExport = me?.permissions.includes('exports.run') ?? false;
  const stepUp = useStepUp();
  const [exportFailure, setExportFailure] = useState<string | null>(null);
  const [exportStatus, setExportStatus] = useState('');

  const entries = useInfiniteQuery({
    queryKey: auditKeys.audit(filters),
    queryFn: ({ pageParam }) => auditCalls.audit(filters, pageParam),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.next_before,
    // The log grows all the time: each visit shows the newest entries.
    refetchOnMount: 'always',
  });
  const download = useMutation({
    mutationFn: () => stepUp.run(() => auditCalls.auditCsv(filters)),
    onSuccess: ({ blob, fileName }) => {
      downloadFile(blob, fileName ?? 'audit-log.csv');
      setExportStatus('The CSV file is downloading.');
    },
    onError: (error) => {
      if (!(error instanceof StepUpCancelled)) setExportFailure(serverMessage(error));
    },
  });

  const events = entries.data?.pages.flatMap((page) => page.events) ?? [];
  const olderFailure = entries.isFetchNextPageError ? serverMessage(entries.error) : null;

  return (
    <section aria-labelledby="entries-title">
      <div className={styles.sectionHead}>
        <h2 id="entries-title" className={styles.sectionTitle}>
          Entries
        </h2>
        {canExport ? (
          <button
            type="button"
            className={cx(buttonStyles.button, buttonStyles.secondary)}
            disabled={download.isPending}
            onClick={() => {
              setExportFailure(null);
              setExportStatus('');
              download.mutate();
            }}
          >
            {download.isPending ? 'Preparing the CSV...' : 'Download CSV'}
          </button>
        ) : null}
      </div>
      <FormAlert message={exportFailure} />
      <p role="status" className={styles.statusLine}>
        {exportStatus}
      </p>
      {entries.isPending ? (
        <p role="status" className={styles.muted}>
          <LoadingIndicator type="circles" size="xs" /> Loading the entries...
        </p>
      ) : entries.isError ? (
        <FormAlert message={serverMessage(entries.error)} />
      ) : events.length === 0 ? (
        <p role="status">No entries match these filters.</p>
      ) : (
        <>
          <p role="status" className={styles.muted}>
            {events.length === 1 ? 'One entry shown' : `${events.length} entries shown`}
            {entries.hasNextPage ? '; older entries follow.' : '.'}
          </p>
          <AuditTable events={events} />
          {entries.hasNextPage ? (
            <div className={styles.more}>
              <button
                type="button"
                className={cx(buttonStyles.button, buttonStyles.secondary)}
                disabled={entries.isFetchingNextPage}
                onClick={() => entries.fetchNextPage()}
              >
                {entries.isFetchingNextPage ? 'Loading older entries...' : 'Older entries'}
              </button>
            </div>
          ) : null}
          {olderFailure ? <FormAlert message={olderFailure} /> : null}
        </>
      )}
    </section>
  );
}

function AuditTable({ events }: { events: AuditEventView[] }) {
  return (
    <div className={styles.tableFrame}>
      <table className={styles.table}>
        <caption className="visually-hidden">Audit entries, newest first</caption>
        <colgroup>
          <col className={styles.colTime} />
          <col className={styles.colWho} />
          <col className={styles.colAction} />
          <col className={styles.colApplication} />
          <col className={styles.colAddress} />
          <col />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Who</th>
            <th scope="col">Action</th>
            <th scope="col">Application</th>
            <th scope="col">Address</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {events.map((event) => (
            <tr key={event.seq}>
              <td>
                <time dateTime={event.at}>{formatDateTime(event.at)}</time>
              </td>
              <td>{actorName(event.actor_type, event.actor_label)}</td>
              <td>{actionLabel(event.action)}</td>
              <td>
                <ApplicationCell event={event} />
              </td>
              <td>{event.ip ?? <span className={styles.muted}>None</span>}</td>
              <td>
                <Details detail={event.detail} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The applicant by name (the id when the application has none or is gone), linking to the
 * entries of that application; for a search, an export or a batch, how many it covered.
 */
function ApplicationCell({ event }: { event: AuditEventView }) {
  const id = event.application_id;
  if (id) {
    const name = event.application_name ?? null;
    return (
      <Link
        to={`?application=${encodeURIComponent(id)}`}
        aria-label={`Entries of the application of ${name ?? id}`}
        title={name ? id : undefined}
      >
        {name ?? id}
      </Link>
    );
  }
  const covered = coveredText(event.action, event.detail);
  return covered ?? <span className={styles.muted}>None</span>;
}

function Details({ detail }: { detail: Record<string, unknown> }) {
  const entries = Object.entries(detail ?? {});
  if (entries.length === 0) return <span className={styles.muted}>None</span>;
  return (
    <dl className={styles.details}>
      {entries.map(([key, value]) => (
        <div key={key}>
          <dt>{key.replace(/_/g, ' ')}:</dt> <dd>{detailText(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

export { AuditPage as Component };
