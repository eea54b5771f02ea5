import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, type useSearchParams } from 'react-router';
import { decisionTypeOptions, majorOptions } from '../../../shared/application/option-lists';
import { APPLICATION_STATUSES } from '../../../shared/staff/application-list-api';
import authStyles from '../../auth/auth-form.module.css';
import buttonStyles from '../../ui/button.module.css';
import { cx } from '../../ui/cx';
import { decisionCodesQuery } from '../decisions/decision-calls';
import styles from '../shell/console.module.css';
import {
  clearedFilters,
  hasFilters,
  type ListQuery,
  listQueryFromSearch,
  listQueryString,
  type MissingFilter,
  STATUS_LABELS,
  searchOfListQuery,
  termChoices,
  withFilters,
} from './application-filters';
import { ChoiceFilter, DateFilter, realOptions } from './filter-fields';
import list from './list.module.css';
import type { SetQuery } from './list-columns';

/** Typing pauses this long before the list is asked again: one call per word, not per letter. */
const SEARCH_DELAY_MS = 350;

const MISSING_CHOICES: { value: MissingFilter; label: string }[] = [
  { value: '', label: 'Any' },
  { value: 'true', label: 'Some items missing' },
  { value: 'false', label: 'Nothing missing' },
];

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
