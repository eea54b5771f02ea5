import type { useQuery } from '@tanstack/react-query';
import type { ApplicationListResponse } from '../../../shared/staff/application-list-api';
import { ServerError } from '../../data/http-client';
import { cx } from '../../ui/cx';
import { uniqueMessages } from '../../ui/form-state';
import { LoadingIndicator } from '../../ui/loading-indicator';
import styles from '../shell/console.module.css';
import { serverMessage } from '../shell/staff-form';
import { foundSentence, hasFilters, type ListQuery, rangeSentence } from './application-filters';
import { ApplicationTable } from './application-table';
import list from './list.module.css';
import type { SetQuery } from './list-columns';
import { Paging, SortChoice } from './list-paging';
import { pageSelectionState, type RowSelection } from './row-selection';

export function Results({
  query,
  setQuery,
  found,
  selection,
}: {
  query: ListQuery;
  setQuery: SetQuery;
  found: ReturnType<typeof useQuery<ApplicationListResponse>>;
  selection: RowSelection;
}) {
  const data = found.data;
  const settled = data !== undefined && !found.isFetching && !found.isPlaceholderData;
  // Emptied while the list loads, so each new result is read out, even the same count again.
  const announcement = found.isError
    ? ''
    : settled
      ? foundSentence(data.total, data.total_exact)
      : '';

  return (
    <section aria-labelledby="results-title" className={list.results}>
      <div className={styles.sectionHead}>
        <h2 id="results-title" className={styles.sectionTitle}>
          Results
        </h2>
        <SortChoice query={query} setQuery={setQuery} />
      </div>
      <div role="status" aria-live="polite" className="visually-hidden">
        {announcement}
      </div>
      {found.isError ? (
        <ListFailure error={found.error} />
      ) : data === undefined ? (
        <p className={styles.muted}>
          <LoadingIndicator type="circles" size="xs" /> Loading the applications...
        </p>
      ) : (
        <div aria-busy={found.isFetching} className={cx(found.isFetching && list.loading)}>
          <div className={list.summaryLine}>
            <p className={list.summary}>
              <strong>{foundSentence(data.total, data.total_exact)}</strong>
              {data.applications.length > 0 ? (
                <span className={styles.muted}>
                  {' '}
                  {rangeSentence(
                    data.page,
                    data.page_size,
                    data.applications.length,
                    data.total,
                    data.total_exact,
                  )}
                </span>
              ) : null}
              {found.isFetching ? (
                <span className={styles.muted}>
                  {' '}
                  <LoadingIndicator type="circles" size="xs" /> Updating...
                </span>
              ) : null}
            </p>
            {data.applications.length > 0 ? (
              <PageSelection selection={selection} page={data.applications.map((row) => row.id)} />
            ) : null}
          </div>
          {data.applications.length === 0 ? (
            <p className={styles.muted}>
              {hasFilters(query)
                ? 'No application matches this search and these filters.'
                : 'No applications yet.'}
            </p>
          ) : (
            <ApplicationTable
              query={query}
              setQuery={setQuery}
              rows={data.applications}
              selection={selection}
            />
          )}
          <Paging query={query} setQuery={setQuery} data={data} />
        </div>
      )}
    </section>
  );
}

/** Ticks every row of the page at once, and says how many are ticked in all. */
function PageSelection({ selection, page }: { selection: RowSelection; page: string[] }) {
  const state = pageSelectionState(selection.ids, page);
  const count = selection.ids.length;
  return (
    <div className={list.selectBar}>
      <label className={list.check}>
        <input
          type="checkbox"
          checked={state === 'all'}
          ref={(input) => {
            if (input) input.indeterminate = state === 'some';
          }}
          onChange={(event) => selection.togglePage(page, event.target.checked)}
        />
        Select all on this page
      </label>
      {count > 0 ? (
        <>
          <span className={styles.muted}>{count.toLocaleString('en-US')} selected</span>
          <button type="button" className={styles.linkButton} onClick={selection.clear}>
            Clear selection
          </button>
        </>
      ) : null}
    </div>
  );
}

/** A refused list: the server's sentence, then what it says of each parameter it refused. */
function ListFailure({ error }: { error: unknown }) {
  const details =
    error instanceof ServerError && error.errors
      ? uniqueMessages(...Object.values(error.errors))
      : [];
  return (
    <div role="alert" className={cx(styles.notice, styles.noticeError)}>
      <p>{serverMessage(error)}</p>
      {details.length > 0 ? (
        <ul>
          {details.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
