import type { EquivalencyTableView } from '../../../shared/credit/equivalency-api';
import styles from '../shell/console.module.css';
import { formatDateTime } from '../shell/page-heading';

/** Each sending college's table: which file, who imported it and when. */
export function TablesList({ tables }: { tables: readonly EquivalencyTableView[] }) {
  if (tables.length === 0)
    return <p className={styles.muted}>No equivalency tables have been imported yet.</p>;
  return (
    <div className={styles.tableFrame}>
      <table className={styles.table}>
        <caption className="visually-hidden">Equivalency tables by sending college</caption>
        <thead>
          <tr>
            <th scope="col">College</th>
            <th scope="col">CEEB</th>
            <th scope="col">Rows</th>
            <th scope="col">File</th>
            <th scope="col">Imported by</th>
            <th scope="col">When</th>
          </tr>
        </thead>
        <tbody>
          {tables.map((table) => (
            <tr key={table.ceeb}>
              <td>{table.name ?? <span className={styles.muted}>Not in the college list</span>}</td>
              <td>{table.ceeb}</td>
              <td>{table.row_count.toLocaleString('en-US')}</td>
              <td>{table.file_name}</td>
              <td>{table.imported_by_label}</td>
              <td>{formatDateTime(table.imported_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
