import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../ui/button';
import { LoadingIndicator } from '../../ui/loading-indicator';
import styles from '../shell/console.module.css';
import { PageHeading } from '../shell/page-heading';
import { downloadFile } from '../shell/secrets';
import { meQueryOptions } from '../shell/staff-calls';
import { FormAlert, serverMessage } from '../shell/staff-form';
import { StepUpCancelled, useStepUp } from '../shell/step-up';
import { auditCalls, auditKeys, auditSearch } from './audit-calls';
import { FilterForm } from './audit-filter-form';
import { filtersFromSearch, filterValues, searchForValues } from './audit-filters';
import { AuditTable } from './audit-table';

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
          <Button
            type="button"
            variant="secondary"
            disabled={download.isPending}
            onClick={() => {
              setExportFailure(null);
              setExportStatus('');
              download.mutate();
            }}
          >
            {download.isPending ? 'Preparing the CSV...' : 'Download CSV'}
          </Button>
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
              <Button
                type="button"
                variant="secondary"
                disabled={entries.isFetchingNextPage}
                onClick={() => entries.fetchNextPage()}
              >
                {entries.isFetchingNextPage ? 'Loading older entries...' : 'Older entries'}
              </Button>
            </div>
          ) : null}
          {olderFailure ? <FormAlert message={olderFailure} /> : null}
        </>
      )}
    </section>
  );
}

export { AuditPage as Component };
