import { Link } from 'react-router';
import type { ApplicationListResponse } from '../../../shared/staff/application-list-api';
import { buttonClassName } from '../../ui/button';
import { cx } from '../../ui/cx';
import authStyles from '../../ui/form-controls.module.css';
import styles from '../shell/console.module.css';
import {
  currentSort,
  type ListQuery,
  listQueryString,
  PAGE_SIZES,
  pageCount,
  withPage,
  withPageSize,
} from './application-filters';
import list from './list.module.css';
import { type SetQuery, SORTABLE } from './list-columns';

/** The order as a choice, for narrow screens where the table's headers are not shown. */
export function SortChoice({ query, setQuery }: { query: ListQuery; setQuery: SetQuery }) {
  const { sort, direction } = currentSort(query);
  const value = sort === null ? '' : `${sort}:${direction}`;
  return (
    <div className={list.sortChoice}>
      <label htmlFor="list-sort" className={authStyles.label}>
        Sort by
      </label>
      <select
        id="list-sort"
        className={cx(styles.select, styles.selectSmall)}
        value={value}
        onChange={(event) => {
          const [column, order] = event.target.value.split(':');
          if (!column || !order) return;
          setQuery({ ...query, sort: column, direction: order, page: 1 });
        }}
      >
        {sort === null ? <option value="">Best match</option> : null}
        {SORTABLE.flatMap((column) => [
          <option key={`${column.sort}:asc`} value={`${column.sort}:asc`}>
            {column.label}, ascending
          </option>,
          <option key={`${column.sort}:desc`} value={`${column.sort}:desc`}>
            {column.label}, descending
          </option>,
        ])}
      </select>
    </div>
  );
}

export function Paging({
  query,
  setQuery,
  data,
}: {
  query: ListQuery;
  setQuery: SetQuery;
  data: ApplicationListResponse;
}) {
  const pages = pageCount(data.total, data.page_size);
  const hasPrevious = data.page > 1;
  const hasNext =
    data.page < pages || (!data.total_exact && data.applications.length === data.page_size);
  const pageText = data.total_exact
    ? `Page ${data.page} of ${pages}`
    : `Page ${data.page} of more than ${pages}`;
  return (
    <nav aria-label="Pages of the list" className={list.paging}>
      <div className={list.pageLinks}>
        {hasPrevious ? (
          <Link
            to={`?${listQueryString(withPage(query, data.page - 1))}`}
            className={cx(buttonClassName('secondary'), styles.smallButton)}
          >
            Previous page
          </Link>
        ) : null}
        <span className={list.pageText}>{pageText}</span>
        {hasNext ? (
          <Link
            to={`?${listQueryString(withPage(query, data.page + 1))}`}
            className={cx(buttonClassName('secondary'), styles.smallButton)}
          >
            Next page
          </Link>
        ) : null}
      </div>
      <div className={list.pageSize}>
        <label htmlFor="list-page-size" className={authStyles.label}>
          Applications per page
        </label>
        <select
          id="list-page-size"
          className={cx(styles.select, styles.selectSmall)}
          value={String(query.page_size)}
          onChange={(event) => setQuery(withPageSize(query, Number(event.target.value)))}
        >
          {(PAGE_SIZES as readonly number[]).includes(query.page_size) ? null : (
            <option value={String(query.page_size)}>{query.page_size}</option>
          )}
          {PAGE_SIZES.map((size) => (
            <option key={size} value={String(size)}>
              {size}
            </option>
          ))}
        </select>
      </div>
    </nav>
  );
}
