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

export function Results({
  query,
  setQuery,
  found,
}: {
  query: ListQuery;
  setQuery: SetQuery;
  found: ReturnType<typeof useQuery<ApplicationListResponse>>;
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
          {data.applications.length === 0 ? (
            <p className={styles.muted}>
              {hasFilters(query)
                ? 'No application matches this search and these filters.'
                : 'No applications yet.'}
            </p>
          ) : (
            <ApplicationTable query={query} setQuery={setQuery} rows={data.applications} />
          )}
          <Paging query={query} setQuery={setQuery} data={data} />
        </div>
      )}
    </section>
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
