import {
  applicationUrls,
  EXPORT_COLUMNS_MAX,
  type ExportJob,
  type SavedView,
  type SavedViewInput,
} from '../../../shared/staff/application-api';
import {
  BULK_CHECKLIST_API,
  type BulkChecklistInput,
  bulkChecklistItemsSchema,
  bulkChecklistResultSchema,
} from '../../../shared/staff/bulk-checklist';
import { deleteJson, getJson, postJson } from '../../data/http-client';
import { fetchApplicationList } from '../common/staff-query-keys';
import { type DownloadedFile, fetchFile } from '../shell/staff-calls';

export { listKeys } from '../common/staff-query-keys';

/** One column a CSV export may hold, with the heading of its group in the chooser. */
export interface ExportColumn {
  key: string;
  label: string;
  group: string;
}

export interface ExportColumns {
  columns: ExportColumn[];
  default: string[];
  max: number;
}

const GROUP_LABELS: Record<string, string> = {
  fixed: 'Application',
  decision: 'Receipt and decision',
  coursework: 'Transfer coursework',
  credit: 'Transfer credit',
  review: 'Reading',
  answer: 'Answers',
  checklist: 'Checklist',
};

const stringsOf = (value: unknown): string[] | null =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : null;

/**
 * The export columns of GET /exports/columns (src/shared/staff/export-columns.ts), read with
 * care: a column without an id is left out rather than breaking the chooser.
 */
export function exportColumnsOf(reply: unknown): ExportColumns {
  const record =
    typeof reply === 'object' && reply !== null ? (reply as Record<string, unknown>) : {};
  const list = Array.isArray(reply) ? reply : record.columns;
  const columns = (Array.isArray(list) ? list : []).flatMap((item): ExportColumn[] => {
    if (typeof item !== 'object' || item === null) return [];
    const column = item as Record<string, unknown>;
    const key = typeof column.id === 'string' ? column.id : column.key;
    if (typeof key !== 'string') return [];
    const group = typeof column.group === 'string' ? column.group : '';
    return [
      {
        key,
        label: typeof column.label === 'string' ? column.label : key,
        group: GROUP_LABELS[group] ?? (group || 'Columns'),
      },
    ];
  });
  const chosen =
    stringsOf(record.default_columns) ??
    stringsOf(record.default) ??
    columns.map((column) => column.key);
  const max = typeof record.max === 'number' && record.max > 0 ? record.max : EXPORT_COLUMNS_MAX;
  return { columns, default: chosen, max };
}

/** The list page's calls: the list, saved views and exports (application-api.ts has the contract). */
export const listCalls = {
  list: fetchApplicationList,
  savedViews: () => getJson<SavedView[]>(applicationUrls.savedViews),
  saveView: (view: SavedViewInput) => postJson<SavedView>(applicationUrls.savedViews, view),
  deleteView: (id: string) =>
    deleteJson<unknown>(applicationUrls.savedView(encodeURIComponent(id))),
  exportColumns: () => getJson<unknown>(applicationUrls.exportColumns).then(exportColumnsOf),
  /** A CSV or ZIP export; a refusal (step-up, expired) fails like any call. */
  file: (href: string): Promise<DownloadedFile> => fetchFile(href),
  startZip: (query: string) => postJson<ExportJob>(applicationUrls.zipExports, { query }),
  zipJob: (id: string) => getJson<ExportJob>(applicationUrls.zipExport(encodeURIComponent(id))),
  zipJobs: () => getJson<ExportJob[]>(applicationUrls.zipExports),
  /** The checklist items a bulk mark may name. */
  checklistItems: () =>
    getJson<unknown>(BULK_CHECKLIST_API.items).then(
      (reply) => bulkChecklistItemsSchema.parse(reply).items,
    ),
  bulkMark: (input: BulkChecklistInput) =>
    postJson<unknown>(BULK_CHECKLIST_API.mark, input).then((reply) =>
      bulkChecklistResultSchema.parse(reply),
    ),
};

export const checklistItemsKey = ['staff', 'checklist-items'] as const;
