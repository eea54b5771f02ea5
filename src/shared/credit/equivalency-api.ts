import { STAFF_API } from '../routes';

/** The console's calls for equivalency tables (`credit.tables`). */
export const equivalencyUrls = {
  /** GET: every sending college's table. POST `?file_name=`: a CSV body replaces the tables. */
  tables: `${STAFF_API}/equivalencies`,
  /** POST `?file_name=`: a CSV body checked, nothing stored. */
  check: `${STAFF_API}/equivalencies/check`,
} as const;

/** The body's type: the file's text as it is, not JSON. */
export const EQUIVALENCY_CSV_CONTENT_TYPE = 'text/csv';
/** The largest file the console takes (a 20,000-row table is about 1.5 MB). */
export const EQUIVALENCY_CSV_MAX_BYTES = 8 * 1024 * 1024;
export const EQUIVALENCY_FILE_NAME_MAX_LENGTH = 200;

/** One sending college's table as stored. */
export interface EquivalencyTableView {
  ceeb: string;
  /** The college's name from the college list, null when the list has no such code. */
  name: string | null;
  row_count: number;
  file_name: string;
  imported_by_label: string;
  /** ISO 8601. */
  imported_at: string;
}

/** What a file holds (a check) or held (an import). */
export interface EquivalencyImportSummary {
  colleges: Array<{ ceeb: string; rows: number }>;
  rows: number;
  file_name: string;
}

/** A file refused: every problem with its line; nothing was stored. */
export interface EquivalencyProblemsBody {
  message: string;
  problems: string[];
}

export const EQUIVALENCY_REFUSED_MESSAGE =
  'The file was not imported: correct the problems listed and try again.';
