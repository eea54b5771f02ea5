import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, type useSearchParams } from 'react-router';
import { LIST_FILTERS } from '../../../shared/staff/list-filters';
import { tenantQueryOptions } from '../../data/tenant';
import { Button, buttonClassName } from '../../ui/button';
import { cx } from '../../ui/cx';
import authStyles from '../../ui/form-controls.module.css';
import type { ChoiceSources } from '../common/list-filter-choices';
import { decisionCodesQuery } from '../decisions/decision-calls';
import styles from '../shell/console.module.css';
import {
  appliedFilterCount,
  clearedFilters,
  filtersSummary,
  hasFilters,
  type ListQuery,
  listQueryFromSearch,
  listQueryString,
  searchOfListQuery,
  withFilters,
} from './application-filters';
import { FilterControl } from './filter-fields';
import list from './list.module.css';
import type { SetQuery } from './list-columns';

/** The search box: `/` focuses it from anywhere on the page. */
export const LIST_SEARCH_ID = 'list-search';

/** Typing pauses this long before the list is asked again: one call per word, not per letter. */
const SEARCH_DELAY_MS = 350;

export function ListFilters({
  query,
  setQuery,
  onSearch,
}: {
  query: ListQuery;
  setQuery: SetQuery;
  onSearch: ReturnType<typeof useSearchParams>[1];
}) {
  const [text, setText] = useState(query.q);
  // The address can change the search too (a saved view, Clear, Back): the box follows it.
  const [addressQ, setAddressQ] = useState(query.q);
  if (query.q !== addressQ) {
    setAddressQ(query.q);
    if (query.q.trim() !== text.trim()) setText(query.q);
  }

  // Written with the address as it is when the timer fires, not as it was when typing began.
  const applySearch = (value: string) =>
    onSearch(
      (previous) => {
        const current = listQueryFromSearch(previous);
        if (current.q.trim() === value.trim()) return previous;
        return searchOfListQuery(withFilters(current, { q: value }));
      },
      { replace: true },
    );

  // What the address searches for now, for the timer to tell typing from the address changing.
  const addressSearch = useRef(query.q);
  useEffect(() => {
    addressSearch.current = query.q;
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: only typing starts the timer; applySearch reads the address itself.
  useEffect(() => {
    if (text.trim() === addressSearch.current.trim()) return;
    const timer = setTimeout(() => applySearch(text), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    applySearch(text);
  };

  const codes = useQuery(decisionCodesQuery);
  const tenant = useQuery(tenantQueryOptions);
  const sources: ChoiceSources = {
    year: new Date().getFullYear(),
    decisionCodes: new Map((codes.data ?? []).map((code) => [code.code, code.label])),
    requirements: tenant.data?.credit.requirements ?? [],
  };

  const applied = appliedFilterCount(query);

  return (
    <section className={cx(styles.section, list.searchSection)} aria-labelledby="filters-title">
      {/* Named for the outline and the form, not drawn: the Search label says it already. */}
      <h2 id="filters-title" className="visually-hidden">
        Search and filters
      </h2>
      <search>
        <form aria-labelledby="filters-title" noValidate onSubmit={onSubmit}>
          {/* The box and its buttons on one line: the rows start higher on the screen. */}
          <div className={list.searchLine}>
            <div className={cx(authStyles.field, list.searchField)}>
              <label htmlFor={LIST_SEARCH_ID} className={authStyles.label}>
                Search
              </label>
              <p id="list-search-hint" className={authStyles.hint}>
                Names (typos and accents are forgiven), email, phone, school name or CEEB code.
              </p>
              <div className={authStyles.control}>
                <input
                  id={LIST_SEARCH_ID}
                  type="search"
                  className={authStyles.input}
                  value={text}
                  maxLength={200}
                  autoComplete="off"
                  spellCheck={false}
                  aria-describedby="list-search-hint"
                  onChange={(event) => setText(event.target.value)}
                />
              </div>
            </div>
            <div className={list.searchActions}>
              <Button type="submit" variant="primary">
                Search
              </Button>
              {hasFilters(query) ? (
                <Link
                  to={`?${listQueryString(clearedFilters(query))}`}
                  className={buttonClassName('secondary')}
                >
                  Clear search and filters
                </Link>
              ) : null}
            </div>
          </div>
          {/* Collapsed, so the first rows of results show without scrolling on a laptop. */}
          <details className={list.filtersDisclosure}>
            <summary className={list.filtersSummary}>{filtersSummary(applied)}</summary>
            <div className={cx(styles.formRow, list.filterRow)}>
              {LIST_FILTERS.map((row) => (
                <FilterControl
                  key={row.name}
                  row={row}
                  query={query}
                  sources={sources}
                  onChange={(change) => setQuery(withFilters(query, change))}
                />
              ))}
            </div>
          </details>
        </form>
      </search>
    </section>
  );
}
