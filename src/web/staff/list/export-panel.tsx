import styles from '../shell/console.module.css';
import type { ListQuery } from './application-filters';
import { CoursesExport } from './courses-export';
import { CsvExport } from './csv-export';
import list from './list.module.css';
import { ZipExport } from './zip-export';

/**
 * Exports of the list as it is filtered now (every page of it): a CSV of the chosen columns, a
 * CSV of the coursework one course a line, or a ZIP of the application PDFs made by a job. Both need a fresh second factor: the step-up
 * dialog asks for it when the server says so, as the audit log's CSV does.
 */
export function ExportPanel({ query, total }: { query: ListQuery; total: number | null }) {
  return (
    <section className={styles.section} aria-labelledby="exports-title">
      <h2 id="exports-title" className={styles.sectionTitle}>
        Export this list
      </h2>
      <p className={styles.muted}>
        Exports hold every application the search and filters find
        {total === null ? '' : ` (${total.toLocaleString('en-US')} now)`}, not only this page. You
        may be asked to confirm it is you.
      </p>
      <div className={list.exportGrid}>
        <CsvExport query={query} />
        <CoursesExport query={query} />
        <ZipExport query={query} />
      </div>
    </section>
  );
}
