import { z } from 'zod';
import { serviceViewSchema } from '../api/service';
import { receiptSchema } from '../api/status';
import type { ApplicationListRow } from './application-list-api';
import { staffDecisionSchema } from './decision-api';
import { applicationIdParams, STAFF_API } from './staff-api';

/*
 * The staff console's calls about one application and about batches of them: the read view, its
 * checklist, saved views of the list, and exports. The browser parses every answer with these
 * schemas and the server parses every body with them again.
 */

export const CHECKLIST_STATES = ['awaiting', 'received', 'waived'] as const;
export type ChecklistState = (typeof CHECKLIST_STATES)[number];

export const CHECKLIST_STATE_LABELS: Record<ChecklistState, string> = {
  awaiting: 'Awaiting',
  received: 'Received',
  waived: 'Waived',
};

export const CHECKLIST_KINDS = ['document', 'transcript', 'fee', 'tenant'] as const;
export type ChecklistKind = (typeof CHECKLIST_KINDS)[number];

/** Item keys: `document:<answer key>`, `transcript:<n>`, `fee`, `tenant:<id>`. */
export const CHECKLIST_ITEM_KEY_PATTERN =
  /^(document:[a-z0-9_]{1,80}|transcript:\d{1,2}|fee|tenant:[a-z0-9_-]{1,40})$/;

export const APPLICATION_API_MESSAGES = {
  checklistState: `A checklist state is one of: ${CHECKLIST_STATES.join(', ')}.`,
  checklistItem: 'This application has no such checklist item.',
  viewName: 'Name the view with 1 to 80 characters.',
  viewNameTaken: 'You already have a view with this name.',
  viewQuery: 'A saved view is the list’s query string, up to 2,000 characters.',
  viewsFull: 'You can keep up to 50 saved views; delete one first.',
  columns: 'Choose columns from the list of export columns.',
  exportEmpty: 'No applications match these filters: there is nothing to export.',
  exportExpired: 'This export has expired. Start a new one.',
  exportNotReady: 'This export is not finished yet.',
  neighboursEmail: 'Previous and next follow the list: give the list’s filters, not email.',
} as const;

export const checklistItemParams = applicationIdParams.extend({
  item: z.string().regex(CHECKLIST_ITEM_KEY_PATTERN, APPLICATION_API_MESSAGES.checklistItem),
});

/** PUT /staff/api/applications/:id/checklist/:item */
export const checklistMarkSchema = z.strictObject({
  state: z.enum(CHECKLIST_STATES, { error: APPLICATION_API_MESSAGES.checklistState }),
});
export type ChecklistMarkInput = z.infer<typeof checklistMarkSchema>;

export const checklistItemSchema = z.object({
  key: z.string(),
  kind: z.enum(CHECKLIST_KINDS),
  label: z.string(),
  /** For a document item: the file question it waits for. */
  answer_key: z.string().nullable(),
  state: z.enum(CHECKLIST_STATES),
  /** Who set the state: a staff member's name, or the applicant (an upload); null while never set. */
  set_by: z
    .object({ type: z.enum(['staff', 'applicant']), id: z.string().nullable(), label: z.string() })
    .nullable(),
  set_at: z.string().nullable(),
});
export type ChecklistItem = z.infer<typeof checklistItemSchema>;

export const checklistSchema = z.object({
  items: z.array(checklistItemSchema),
  missing: z.number().int().nonnegative(),
});
export type Checklist = z.infer<typeof checklistSchema>;

/** GET /staff/api/applications/:id/receipt/verify */
export const receiptVerificationSchema = z.object({
  matches: z.boolean(),
  fingerprint: z.string(),
  recomputed: z.string(),
});
export type ReceiptVerification = z.infer<typeof receiptVerificationSchema>;

/** GET /staff/api/applications/:id: what the one-application page draws. */
export const applicationDetailSchema = z.object({
  id: z.string(),
  email: z.string(),
  status: z.enum(['started', 'validating', 'submitted']),
  submitted_at: z.string().nullable(),
  last_activity: z.string(),
  /** The answers as the staff link reads them: the printable projection is built from this. */
  view: serviceViewSchema,
  checklist: checklistSchema,
  /** The confirmation number and fingerprint given at submit; null before. */
  receipt: receiptSchema.nullable(),
  /**
   * The student information system's id its integration wrote back (PUT /api/v1/applications/
   * {id}/sis-id), with the client that wrote it and when; null until then.
   */
  sis_id: z.object({ value: z.string(), set_by: z.string(), set_at: z.string() }).nullable(),
  /** The decision recorded, released or not (staff only); null before one is recorded. */
  decision: staffDecisionSchema.nullable(),
});
export type ApplicationDetail = z.infer<typeof applicationDetailSchema>;

/**
 * GET /staff/api/applications/:id/neighbours?<the list's query>: the applications before and
 * after this one in the list the reader came from (null at either end or when it is not in it).
 */
export interface ApplicationNeighbours {
  previous: string | null;
  next: string | null;
  /** The list's page each neighbour is on: carry it in the address so the next step finds it. */
  previous_page: number | null;
  next_page: number | null;
  /** 1-based place in the list, and the list's size; null when the application is not in it. */
  position: number | null;
  total: number;
}

/** GET /staff/api/applications/:id/history: the application's own audit entries, newest first. */
export interface ApplicationHistoryEntry {
  seq: number;
  at: string;
  action: string;
  /** Who, as a reader understands it (actor-names.ts): a member's name, or what the actor is. */
  actor: string;
  detail: Record<string, unknown>;
}

export const savedViewSchema = z.strictObject({
  name: z
    .string({ error: APPLICATION_API_MESSAGES.viewName })
    .trim()
    .min(1, APPLICATION_API_MESSAGES.viewName)
    .max(80, APPLICATION_API_MESSAGES.viewName),
  /** The list's query string without `?`, e.g. `status=submitted&term=FA2026`. */
  query: z
    .string({ error: APPLICATION_API_MESSAGES.viewQuery })
    .max(2000, APPLICATION_API_MESSAGES.viewQuery),
});
export type SavedViewInput = z.infer<typeof savedViewSchema>;
export const SAVED_VIEWS_MAX = 50;

export interface SavedView {
  id: string;
  name: string;
  query: string;
  created_at: string;
}

/** The columns every CSV export may hold besides answers and checklist items. */
export const EXPORT_FIXED_COLUMNS = [
  'id',
  'email',
  'status',
  'submitted_at',
  'last_activity',
  'missing_items',
] as const;

/** Above every column the catalogue offers (about 450), so "Choose all" is one export. */
export const EXPORT_COLUMNS_MAX = 600;

export type ExportJobStatus = 'queued' | 'running' | 'completed' | 'failed';

export interface ExportJob {
  id: string;
  kind: 'pdf_zip';
  status: ExportJobStatus;
  total: number;
  done: number;
  byte_size: number | null;
  message: string | null;
  created_at: string;
  finished_at: string | null;
  expires_at: string | null;
  /** The list's query string the export was made from. */
  query: string;
}

export const applicationUrls = {
  detail: (id: string) => `${STAFF_API}/applications/${id}`,
  neighbours: (id: string, listQuery: string) =>
    `${STAFF_API}/applications/${id}/neighbours${listQuery ? `?${listQuery}` : ''}`,
  history: (id: string) => `${STAFF_API}/applications/${id}/history`,
  pdf: (id: string) => `${STAFF_API}/applications/${id}/pdf`,
  /** `disposition=attachment` downloads; without it the browser shows the PDF inline. */
  document: (id: string, answerKey: string, download = false) =>
    `${STAFF_API}/applications/${id}/documents/${encodeURIComponent(answerKey)}/pdf${download ? '?disposition=attachment' : ''}`,
  /** GET: the receipt's fingerprint computed again from what is stored now. */
  verifyReceipt: (id: string) => `${STAFF_API}/applications/${id}/receipt/verify`,
  checklistItem: (id: string, item: string) =>
    `${STAFF_API}/applications/${id}/checklist/${encodeURIComponent(item)}`,
  savedViews: `${STAFF_API}/saved-views`,
  savedView: (id: string) => `${STAFF_API}/saved-views/${id}`,
  /** GET with the list's query plus `columns=a,b,c`: streams the CSV. */
  csvExport: `${STAFF_API}/exports/applications.csv`,
  /** GET with the list's query: streams one record per course of the coursework. */
  coursesExport: `${STAFF_API}/exports/courses.csv`,
  /** GET: the columns an export may choose, with labels. */
  exportColumns: `${STAFF_API}/exports/columns`,
  /** POST `{ query }`: starts a ZIP export job; GET lists the member's recent jobs. */
  zipExports: `${STAFF_API}/exports/zip`,
  zipExport: (id: string) => `${STAFF_API}/exports/zip/${id}`,
  zipDownload: (id: string) => `${STAFF_API}/exports/zip/${id}/download`,
} as const;

export type { ApplicationListRow };
