import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { ApplicationListRow } from '../../../shared/staff/application-list-api';
import { Modal } from '../../modal/modal';
import { cx } from '../../ui/cx';
import { decisionCellText } from '../decisions/decision-logic';
import { ReadOnlyLinks } from '../links/read-only-links';
import styles from '../shell/console.module.css';
import { formatDateTime } from '../shell/page-heading';
import { meQueryOptions } from '../shell/staff-calls';
import {
  applicantName,
  applicationHref,
  ariaSortOf,
  currentSort,
  type ListQuery,
  mappedShareText,
  missingItemsText,
  statusLabel,
  withSort,
} from './application-filters';
import list from './list.module.css';
import { COLUMNS, type SetQuery, SORTABLE } from './list-columns';
import type { RowSelection } from './row-selection';

/** What "Skip to results" moves focus to (the list route's handle names it). */
export const RESULTS_TABLE_ID = 'results-table';

function SortIcon({ state }: { state: 'ascending' | 'descending' | 'none' }) {
  return (
    <svg aria-hidden="true" focusable="false" viewBox="0 0 12 16" className={list.sortIcon}>
      <path d="M6 1 10 6H2z" opacity={state === 'ascending' ? 1 : 0.3} />
      <path d="M6 15 2 10h8z" opacity={state === 'descending' ? 1 : 0.3} />
    </svg>
  );
}

export function ApplicationTable({
  query,
  setQuery,
  rows,
  selection,
}: {
  query: ListQuery;
  setQuery: SetQuery;
  rows: ApplicationListRow[];
  selection: RowSelection;
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
      {/* Focused by "Skip to results": the next Tab reaches the first row. */}
      <table id={RESULTS_TABLE_ID} tabIndex={-1} className={cx(styles.table, list.table)}>
        <caption className="visually-hidden">
          Applications, {order}. Sort with the Sort by choice above the table or the column headers.
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
                  {/* Out of the Tab order: the Sort by choice sorts by keyboard, so the rows
                      are one Tab from the table rather than eleven. */}
                  <button
                    type="button"
                    tabIndex={-1}
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
                <div className={list.rowActions}>
                  <label className={list.rowSelect}>
                    <input
                      type="checkbox"
                      checked={selection.isSelected(row.id)}
                      aria-label={`Select ${applicantName(row) || row.email}`}
                      onChange={(event) => selection.toggle(row.id, event.target.checked)}
                    />
                    <span aria-hidden="true">Select</span>
                  </label>
                  {canLink ? <LinksDialog row={row} /> : null}
                </div>
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
              <td data-label="Transfer GPA">{orDash(row.transfer_gpa)}</td>
              <td data-label="Transfer units">{orDash(row.transfer_units)}</td>
              <td data-label="Mapped">{mappedShareText(row)}</td>
              <td data-label="Score">{orDash(row.review_score)}</td>
              <td data-label="Recommendation">
                {orDash(row.review_recommendation_label ?? row.review_recommendation)}
              </td>
              <td data-label="Reads">{orDash(row.reads)}</td>
              <td data-label="SIS ID">{orDash(row.sis_id)}</td>
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
