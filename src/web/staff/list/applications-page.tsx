import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigation, useSearchParams } from 'react-router';
import { decisionTypeOptions, majorOptions } from '../../../shared/application/option-lists';
import type { OptionItem } from '../../../shared/form/model';
import {
  APPLICATION_STATUSES,
  type ApplicationListResponse,
  type ApplicationListRow,
  type ApplicationListSort,
} from '../../../shared/staff/application-list-api';
import authStyles from '../../auth/auth-form.module.css';
import { uniqueMessages } from '../../auth/form-state';
import { ServerError } from '../../data/http-client';
import { Modal } from '../../modal/modal';
import buttonStyles from '../../ui/button.module.css';
import { cx } from '../../ui/cx';
import { LoadingIndicator } from '../../ui/loading-indicator';
import { DecisionBatchPanel } from '../decisions/decision-batch-panel';
import { decisionCodesQuery } from '../decisions/decision-calls';
import { decisionCellText } from '../decisions/decision-logic';
import { ReadOnlyLinks } from '../links/read-only-links';
import styles from '../shell/console.module.css';
import { formatDateTime, PageHeading } from '../shell/page-heading';
import { meQueryOptions } from '../shell/staff-calls';
import { serverMessage } from '../shell/staff-form';
import {
  applicantName,
  applicationHref,
  ariaSortOf,
  clearedFilters,
  currentSort,
  foundSentence,
  hasFilters,
  isListSort,
  type ListQuery,
  listQueryFromSearch,
  listQueryString,
  type MissingFilter,
  missingItemsText,
  PAGE_SIZES,
  pageCount,
  rangeSentence,
  STATUS_LABELS,
  searchOfListQuery,
  statusLabel,
  termChoices,
  withFilters,
  withPage,
  withPageSize,
  withSort,
} from './application-filters';
import { ExportPanel } from './export-panel';
import list from './list.module.css';
import { listCalls, listKeys } from './list-calls';
import { SavedViews } from './saved-views';

/** Typing pauses this long before the list is asked again: one call per word, not per letter. */
const SEARCH_DELAY_MS = 350;

interface Column {
  key: string;
  /** Null where the server does not sort on the column. */
  sort: ApplicationListSort | null;
  label: string;
  className: string;
}

function sortIfListed(key: string): ApplicationListSort | null {
  return isListSort(key) ? key : null;
}

const COLUMNS: Column[] = [
  { key: 'name', sort: 'name', label: 'Name', className: list.colName ?? '' },
  { key: 'email', sort: 'email', label: 'Email', className: list.colEmail ?? '' },
  { key: 'status', sort: 'status', label: 'Status', className: list.colStatus ?? '' },
  { key: 'submitted_at', sort: 'submitted_at', label: 'Submitted', className: list.colDate ?? '' },
  {
    key: 'last_activity',
    sort: 'last_activity',
    label: 'Last activity',
    className: list.colDate ?? '',
  },
  { key: 'program', sort: 'program', label: 'Program', className: list.colProgram ?? '' },
  { key: 'entry_term', sort: 'entry_term', label: 'Entry term', className: list.colTerm ?? '' },
  {
    key: 'decision_type',
    sort: 'decision_type',
    label: 'Decision type',
    className: list.colDecisionType ?? '',
  },
  {
    key: 'decision',
    // Sortable as soon as the server lists it among its sorts.
    sort: sortIfListed('decision'),
    label: 'Decision',
    className: list.colDecision ?? '',
  },
  {
    key: 'missing_items',
    sort: 'missing_items',
    label: 'Missing items',
    className: list.colMissing ?? '',
  },
];

const SORTABLE = COLUMNS.filter(
  (column): column is Column & { sort: ApplicationListSort } => column.sort !== null,
);

const MISSING_CHOICES: { value: MissingFilter; label: string }[] = [
  { value: '', label: 'Any' },
  { value: 'true', label: 'Some items missing' },
  { value: 'false', label: 'Nothing missing' },
];

/** Moves the list to another query; filters add to the history, so Back undoes one. */
type SetQuery = (next: ListQuery, options?: { replace?: boolean }) => void;

function ApplicationsPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  // A change of filter waits for the console's loaders before the address changes; the page
  // shows the view on its way meanwhile, so a ticked box stays ticked.
  const location = useLocation();
  const { location: pending } = useNavigation();
  const query = listQueryFromSearch(
    pending && pending.pathname === location.pathname
      ? new URLSearchParams(pending.search)
      : searchParams,
  );
  const search = listQueryString(query);
  const { data: me } = useQuery({ ...meQueryOptions, enabled: false });
  const canExport = me?.permissions.includes('exports.run') ?? false;
  const canDecide = me?.permissions.includes('decisions.manage') ?? false;
  // Synchronous, so a ticked box or a chosen option shows at once instead of flicking back
  // until the navigation lands.
  const setQuery: SetQuery = (next, options) =>
    setSearchParams(searchOfListQuery(next), {
      replace: options?.replace ?? false,
      flushSync: true,
    });

  const found = useQuery({
    queryKey: listKeys.list(search),
    queryFn: ({ signal }) => listCalls.list(search, signal),
    // The rows already shown stay while the next page or filter loads, so nothing jumps.
    placeholderData: keepPreviousData,
  });

  return (
    <>
      <PageHeading
        title="Applications"
        intro="Every application, newest activity first. Search, filter and sort; the address keeps the view, so it can be shared or saved."
      />
      <ListFilters query={query} setQuery={setQuery} onSearch={setSearchParams} />
      <SavedViews search={listQueryString(withPage(query, 1))} />
      <Results query={query} setQuery={setQuery} found={found} />
      {canDecide ? <DecisionBatchPanel query={query} /> : null}
      {canExport ? <ExportPanel query={query} total={found.data?.total ?? null} /> : null}
    </>
  );
}

function ListFilters({
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

  const terms = termChoices(new Date().getFullYear(), query.term);
  const codes = useQuery(decisionCodesQuery);
  const decisionChoices = (codes.data ?? []).map((code) => ({
    value: code.code,
    label: code.label,
  }));

  return (
    <section className={styles.section} aria-labelledby="filters-title">
      <h2 id="filters-title" className={styles.sectionTitle}>
        Search and filters
      </h2>
      <search>
        <form aria-labelledby="filters-title" noValidate onSubmit={onSubmit}>
          <div className={authStyles.field}>
            <label htmlFor="list-search" className={authStyles.label}>
              Search
            </label>
            <p id="list-search-hint" className={authStyles.hint}>
              Names (typos and accents are forgiven), email, phone, school name or CEEB code.
            </p>
            <div className={authStyles.control}>
              <input
                id="list-search"
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
          <div className={cx(styles.formRow, list.filterRow)}>
            <fieldset className={list.fieldset}>
              <legend className={authStyles.label}>Status</legend>
              <div className={list.checks}>
                {APPLICATION_STATUSES.map((status) => (
                  <label key={status} className={list.check}>
                    <input
                      type="checkbox"
                      checked={query.status.includes(status)}
                      onChange={(event) =>
                        setQuery(
                          withFilters(query, {
                            status: event.target.checked
                              ? [...query.status, status]
                              : query.status.filter((value) => value !== status),
                          }),
                        )
                      }
                    />
                    {STATUS_LABELS[status]}
                  </label>
                ))}
              </div>
            </fieldset>
            <ChoiceFilter
              id="filter-term"
              label="Entry term"
              anyLabel="Any term"
              choices={terms}
              chosen={query.term}
              onChange={(term) => setQuery(withFilters(query, { term }))}
            />
            <ChoiceFilter
              id="filter-program"
              label="Program"
              anyLabel="Any program"
              choices={realOptions(majorOptions)}
              chosen={query.program}
              onChange={(program) => setQuery(withFilters(query, { program }))}
            />
            <ChoiceFilter
              id="filter-decision"
              label="Decision type"
              anyLabel="Any decision type"
              choices={realOptions(decisionTypeOptions)}
              chosen={query.decision_type}
              onChange={(decisionType) =>
                setQuery(withFilters(query, { decision_type: decisionType }))
              }
            />
            <ChoiceFilter
              id="filter-decision-code"
              label="Decision"
              anyLabel="Any decision"
              choices={decisionChoices}
              chosen={query.decision}
              onChange={(decision) => setQuery(withFilters(query, { decision }))}
            />
            <DateFilter
              id="filter-submitted-from"
              label="Submitted from"
              value={query.submitted_from}
              onChange={(value) => setQuery(withFilters(query, { submitted_from: value }))}
            />
            <DateFilter
              id="filter-submitted-to"
              label="Submitted to"
              value={query.submitted_to}
              onChange={(value) => setQuery(withFilters(query, { submitted_to: value }))}
            />
            <div className={authStyles.field}>
              <label htmlFor="filter-missing" className={authStyles.label}>
                Missing checklist items
              </label>
              <select
                id="filter-missing"
                className={styles.select}
                value={query.has_missing}
                onChange={(event) =>
                  setQuery(withFilters(query, { has_missing: event.target.value as MissingFilter }))
                }
              >
                {MISSING_CHOICES.map((choice) => (
                  <option key={choice.value} value={choice.value}>
                    {choice.label}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <div className={styles.formActions}>
            <button type="submit" className={cx(buttonStyles.button, buttonStyles.primary)}>
              Search
            </button>
            {hasFilters(query) ? (
              <Link
                to={`?${listQueryString(clearedFilters(query))}`}
                className={cx(buttonStyles.button, buttonStyles.secondary)}
              >
                Clear search and filters
              </Link>
            ) : null}
          </div>
        </form>
      </search>
    </section>
  );
}

function realOptions(options: readonly OptionItem[]): { value: string; label: string }[] {
  return options.filter((option) => option.value !== '');
}

/** Several values at once come from an address or a saved view; the select shows them as one. */
const SEVERAL = '\u0000several';

function ChoiceFilter({
  id,
  label,
  anyLabel,
  choices,
  chosen,
  onChange,
}: {
  id: string;
  label: string;
  anyLabel: string;
  choices: { value: string; label: string }[];
  chosen: readonly string[];
  onChange: (values: string[]) => void;
}) {
  const known = new Map(choices.map((choice) => [choice.value, choice.label]));
  const unknown = chosen.length === 1 && !known.has(chosen[0] ?? '') ? chosen[0] : undefined;
  const value = chosen.length === 0 ? '' : chosen.length === 1 ? (chosen[0] ?? '') : SEVERAL;
  return (
    <div className={authStyles.field}>
      <label htmlFor={id} className={authStyles.label}>
        {label}
      </label>
      <select
        id={id}
        className={styles.select}
        value={value}
        onChange={(event) => {
          if (event.target.value === SEVERAL) return;
          onChange(event.target.value === '' ? [] : [event.target.value]);
        }}
      >
        <option value="">{anyLabel}</option>
        {chosen.length > 1 ? (
          <option value={SEVERAL}>
            {chosen.map((item) => known.get(item) ?? item).join(' or ')}
          </option>
        ) : null}
        {unknown !== undefined ? <option value={unknown}>{unknown}</option> : null}
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * A date filter. Typing a year into a date box passes through years like 0002 and 0020; only a
 * whole date (or an emptied box) changes the list.
 */
function DateFilter({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const [draft, setDraft] = useState(value);
  const [given, setGiven] = useState(value);
  if (value !== given) {
    setGiven(value);
    setDraft(value);
  }
  return (
    <div className={authStyles.field}>
      <label htmlFor={id} className={authStyles.label}>
        {label}
      </label>
      <div className={authStyles.control}>
        <input
          id={id}
          type="date"
          className={authStyles.input}
          value={draft}
          onChange={(event) => {
            const next = event.target.value;
            setDraft(next);
            if (next !== value && (next === '' || /^(19|20)\d\d-\d\d-\d\d$/.test(next))) {
              onChange(next);
            }
          }}
        />
      </div>
    </div>
  );
}

function Results({
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

function SortIcon({ state }: { state: 'ascending' | 'descending' | 'none' }) {
  return (
    <svg aria-hidden="true" focusable="false" viewBox="0 0 12 16" className={list.sortIcon}>
      <path d="M6 1 10 6H2z" opacity={state === 'ascending' ? 1 : 0.3} />
      <path d="M6 15 2 10h8z" opacity={state === 'descending' ? 1 : 0.3} />
    </svg>
  );
}

function ApplicationTable({
  query,
  setQuery,
  rows,
}: {
  query: ListQuery;
  setQuery: SetQuery;
  rows: ApplicationListRow[];
}) {
  const { data: me } = useQuery({ ...meQueryOptions, enabled: false });
  const canLink = me?.permissions.includes('service_links.manage') ?? false;
  const { sort, direction } = currentSort(query);
  const order =
    sort === null
      ? 'best matches first'
      : `sorted by ${SORTABLE.find((column) => column.sort === sort)?.label.toLowerCase() ?? sort}, ${direction === 'asc' ? 'ascending' : 'descending'}`;
  return (
    <div className={list.frame}>
      <table className={cx(styles.table, list.table)}>
        <caption className="visually-hidden">
          Applications, {order}. Column headers with buttons sort the list.
        </caption>
        <colgroup>
          {COLUMNS.map((column) => (
            <col key={column.key} className={column.className} />
          ))}
        </colgroup>
        <thead>
          <tr>
            {COLUMNS.map((column) => {
              const sort = column.sort;
              if (sort === null) {
                return (
                  <th key={column.key} scope="col" className={list.plainHeader}>
                    {column.label}
                  </th>
                );
              }
              const state = ariaSortOf(query, sort);
              return (
                <th key={column.key} scope="col" aria-sort={state}>
                  <button
                    type="button"
                    className={list.sortButton}
                    onClick={() => setQuery(withSort(query, sort))}
                  >
                    <span>{column.label}</span>
                    <SortIcon state={state} />
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <th scope="row" data-label="Name">
                <Link to={applicationHref(row.id, query)} className={list.name}>
                  {applicantName(row) || 'Name not given yet'}
                </Link>
                {canLink ? <LinksDialog row={row} /> : null}
              </th>
              <td data-label="Email">{row.email}</td>
              <td data-label="Status">
                <span className={cx(list.status, list[`status_${row.status}`])}>
                  {statusLabel(row.status)}
                </span>
              </td>
              <td data-label="Submitted">
                {row.submitted_at ? (
                  <time dateTime={row.submitted_at}>{formatDateTime(row.submitted_at)}</time>
                ) : (
                  <span className={styles.muted}>Not yet</span>
                )}
              </td>
              <td data-label="Last activity">
                <time dateTime={row.last_activity}>{formatDateTime(row.last_activity)}</time>
              </td>
              <td data-label="Program">{orDash(row.program_desc ?? row.program)}</td>
              <td data-label="Entry term">{orDash(row.entry_term_desc ?? row.entry_term)}</td>
              <td data-label="Decision type">
                {orDash(row.decision_type_desc ?? row.decision_type)}
              </td>
              <td data-label="Decision">
                <DecisionCell row={row} />
              </td>
              <td data-label="Missing items">{missingItemsText(row.missing_items)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function DecisionCell({ row }: { row: ApplicationListRow }) {
  const cell = decisionCellText(row);
  if (!cell) return <span className={styles.muted}>—</span>;
  // One element: on a card the cell is a grid of its label and one value.
  return (
    <span>
      {cell.label}
      {cell.unreleased ? <span className={list.unreleased}> (not released)</span> : null}
    </span>
  );
}

function orDash(value: string | null) {
  return value ? value : <span className={styles.muted}>—</span>;
}

/** A colleague elsewhere gets a read-only link to one application, from its row. */
function LinksDialog({ row }: { row: ApplicationListRow }) {
  return (
    <Modal
      title="Read-only links"
      description={`Links to the application of ${row.email} for a colleague without a console account.`}
      size="s"
      trigger={
        <button
          type="button"
          className={cx(styles.linkButton, list.rowAction)}
          aria-label={`Read-only links to the application of ${row.email}`}
        >
          Read-only links
        </button>
      }
    >
      <ReadOnlyLinks application={{ id: row.id, email: row.email }} />
    </Modal>
  );
}

/** The order as a choice, for narrow screens where the table's headers are not shown. */
function SortChoice({ query, setQuery }: { query: ListQuery; setQuery: SetQuery }) {
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

function Paging({
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
            className={cx(buttonStyles.button, buttonStyles.secondary, styles.smallButton)}
          >
            Previous page
          </Link>
        ) : null}
        <span className={list.pageText}>{pageText}</span>
        {hasNext ? (
          <Link
            to={`?${listQueryString(withPage(query, data.page + 1))}`}
            className={cx(buttonStyles.button, buttonStyles.secondary, styles.smallButton)}
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

export { ApplicationsPage as Component };
