import {
  CHECKLIST_STATE_LABELS,
  type ChecklistItem,
  type ChecklistState,
} from '../../../shared/staff/application-api';
import { APPLICATION_LIST_FILTERS } from '../../../shared/staff/application-list-api';
import { STAFF_HOME_ROUTE } from '../shell/staff-session';

/** Where one application's page lives: `/staff/applications/<id>`. */
export const STAFF_APPLICATIONS_ROUTE = '/staff/applications';

/**
 * What the list's address may carry, and so what the neighbours call accepts: the server refuses
 * anything else, so a stray parameter must not cost the reader previous and next. `email` is the
 * home page's lookup of one applicant, not a list, and the neighbours call refuses it.
 */
const LIST_PARAMS: ReadonlySet<string> = new Set([
  'q',
  ...APPLICATION_LIST_FILTERS,
  'sort',
  'direction',
  'page',
  'page_size',
]);

/** The list's query string (no `?`) out of an application page's search, in its given order. */
export function listQueryOf(search: string | URLSearchParams): string {
  const given = typeof search === 'string' ? new URLSearchParams(search) : search;
  const kept = new URLSearchParams();
  for (const [name, value] of given) {
    if (LIST_PARAMS.has(name) && value !== '') kept.append(name, value);
  }
  return kept.toString();
}

/** The list's query with the page a neighbour sits on, so the next step searches from there. */
export function withListPage(listQuery: string, page: number | null): string {
  if (page === null) return listQuery;
  const params = new URLSearchParams(listQuery);
  if (page === 1 && !params.has('page')) return listQuery;
  params.set('page', String(page));
  return params.toString();
}

/** An application's page in the console, carrying the list the reader came from. */
export function applicationPath(id: string, listQuery: string): string {
  const path = `${STAFF_APPLICATIONS_ROUTE}/${encodeURIComponent(id)}`;
  return listQuery ? `${path}?${listQuery}` : path;
}

/** Back to the list (the console's home page), as the reader left it. */
export function listPath(listQuery: string): string {
  return listQuery ? `${STAFF_HOME_ROUTE}?${listQuery}` : STAFF_HOME_ROUTE;
}

/** "3 of 120", or nothing when the application is not in the list (a filter changed under it). */
export function positionText(position: number | null, total: number): string {
  if (position === null || total === 0) return '';
  return `${position.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`;
}

/** Why a step through the list goes nowhere, as the page says it when a key asked for one. */
export function queueEndMessage(
  action: 'next' | 'previous',
  neighbours: { position: number | null } | undefined,
  failed: boolean,
): string {
  if (failed) return 'The place of this application in the list could not be found.';
  if (!neighbours) return 'Still finding the place of this application in the list.';
  if (neighbours.position === null) return 'This application is not in the list any more.';
  return action === 'next'
    ? 'This is the last application in the list.'
    : 'This is the first application in the list.';
}

export type ShortcutAction = 'next' | 'previous' | 'pdf';

/** The keys, as `aria-keyshortcuts` names them and the help lists them. */
export const SHORTCUT_KEYS: Record<ShortcutAction, string> = {
  next: 'J',
  previous: 'K',
  pdf: 'O',
};

/**
 * Where the console keeps whether the reader wants the single-letter keys (WCAG 2.1.4: a reader
 * whose speech input or tremor presses letters by accident turns them off).
 */
export const SHORTCUTS_STORAGE_KEY = 'tp_staff_shortcuts';

/** On unless the reader turned them off. */
export function shortcutsEnabledFrom(stored: string | null): boolean {
  return stored !== 'off';
}

export const SHORTCUT_HELP: ReadonlyArray<{ key: string; does: string }> = [
  { key: SHORTCUT_KEYS.next, does: 'Next application in the list' },
  { key: SHORTCUT_KEYS.previous, does: 'Previous application in the list' },
  { key: SHORTCUT_KEYS.pdf, does: 'Download the application PDF' },
];

/** What a key press needs for the shortcut decision; a KeyboardEvent has all of it. */
export interface ShortcutKeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  repeat?: boolean;
  isComposing?: boolean;
  defaultPrevented?: boolean;
}

/** Where the key went, as far as typing is concerned. */
export interface ShortcutTarget {
  tagName: string;
  isContentEditable?: boolean;
  /** An input's type: a checkbox or a button takes no text, a text box does. */
  type?: string;
  /** Inside a dialog (step-up, the idle prompt), keys belong to the dialog. */
  inDialog?: boolean;
}

const NON_TEXT_INPUTS: ReadonlySet<string> = new Set([
  'button',
  'checkbox',
  'radio',
  'reset',
  'submit',
  'image',
  'file',
  'color',
  'range',
]);

/** Whether the key would be typed into (or pick in) a field rather than be a command. */
export function isTypingTarget(target: ShortcutTarget | null): boolean {
  if (!target) return false;
  if (target.isContentEditable || target.inDialog) return true;
  const tag = target.tagName.toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') return !NON_TEXT_INPUTS.has((target.type ?? 'text').toLowerCase());
  return false;
}

/**
 * The page's command for a key press, or null. Single letters only, never with a modifier: the
 * browser's and the screen reader's own keys (Ctrl+K, Alt+J, Shift+letters in browse mode) keep
 * working, and a held key does not race through the queue.
 */
export function shortcutFor(
  press: ShortcutKeyPress,
  target: ShortcutTarget | null,
): ShortcutAction | null {
  if (press.defaultPrevented || press.isComposing || press.repeat) return null;
  if (press.ctrlKey || press.metaKey || press.altKey || press.shiftKey) return null;
  if (isTypingTarget(target)) return null;
  switch (press.key) {
    case 'j':
      return 'next';
    case 'k':
      return 'previous';
    case 'o':
      return 'pdf';
    default:
      return null;
  }
}

/** The sentence the live region says once a checklist item is set. */
export function checklistAnnouncement(label: string, state: ChecklistState): string {
  return `Marked ${label} ${CHECKLIST_STATE_LABELS[state].toLowerCase()}.`;
}

/** Who set an item and when, as the checklist shows it under the item. */
export function checklistSetText(
  item: Pick<ChecklistItem, 'set_by' | 'set_at'>,
  formatTime: (iso: string) => string,
): string {
  if (!item.set_by) return 'Not marked yet';
  const who = item.set_by.type === 'applicant' ? 'the applicant' : item.set_by.label;
  return item.set_at ? `By ${who}, ${formatTime(item.set_at)}` : `By ${who}`;
}

/** How many items still wait, as the checklist's summary says it. */
export function missingText(missing: number): string {
  if (missing === 0) return 'Nothing is awaited.';
  return missing === 1 ? '1 item awaited.' : `${missing.toLocaleString('en-US')} items awaited.`;
}

const HISTORY_ACTIONS: Record<string, string> = {
  'application.view': 'Opened the application in the console',
  'application.search': 'Found the application in a search',
  'document.view': 'Opened a document',
  'application_pdf.view': 'Downloaded the application PDF',
  'service_link.created': 'Created a read-only link',
  'service_link.revoked': 'Revoked a read-only link',
  'service_link.used': 'Read the application through a read-only link',
  'checklist.mark': 'Marked a checklist item',
  'applications.export_csv': 'Exported in a CSV file',
  'applications.export_zip': 'Exported in a ZIP of PDFs',
  'applications.export_zip_download': 'Downloaded in a ZIP of PDFs',
  'decision.recorded': 'Recorded the decision',
  'decision.changed': 'Changed the decision',
  'decision.release_scheduled': 'Scheduled the release of the decision',
  'decision.released': 'Released the decision',
  'decision.replied': 'The applicant replied to the offer',
};

function textOf(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function isChecklistState(value: unknown): value is ChecklistState {
  return typeof value === 'string' && value in CHECKLIST_STATE_LABELS;
}

/**
 * The names the history gives by key: checklist items, the documents of file questions and the
 * tenant's decision codes.
 */
export interface HistoryLabels {
  item: (itemKey: string) => string | null;
  document: (answerKey: string) => string | null;
  decision: (code: string) => string | null;
}

const NO_LABELS: HistoryLabels = { item: () => null, document: () => null, decision: () => null };

/**
 * What an entry of the application's history says, in words: the action's own sentence where
 * the detail tells more (which item became what, which document, how it was opened), its known
 * label otherwise, and for an action this page does not know yet its name made readable.
 */
export function historyActionText(
  action: string,
  detail: Record<string, unknown> | null | undefined,
  labels: HistoryLabels = NO_LABELS,
): string {
  const facts = detail ?? {};
  if (action.startsWith('checklist.')) {
    const key = textOf(facts.item);
    const item = textOf(facts.label) ?? (key ? (labels.item(key) ?? key) : null);
    const state = facts.state ?? facts.to;
    if (item && isChecklistState(state)) {
      return `Marked ${item} ${CHECKLIST_STATE_LABELS[state].toLowerCase()}`;
    }
  }
  if (action === 'document.view') {
    const key = textOf(facts.answer_key);
    const name = key ? (labels.document(key) ?? key) : null;
    const saved = facts.disposition === 'attachment';
    if (name) return saved ? `Downloaded the document ${name}` : `Opened the document ${name}`;
    if (saved) return 'Downloaded a document';
  }
  const known = HISTORY_ACTIONS[action];
  if (action.startsWith('decision.')) {
    // A code the tenant no longer has keeps its bare code: it is all the trail knows of it.
    const decisionName = (value: unknown) => {
      const code = textOf(value);
      return code ? (labels.decision(code) ?? code) : null;
    };
    const decision = decisionName(facts.code);
    if (
      action === 'decision.replied' &&
      (facts.reply === 'accepted' || facts.reply === 'declined')
    ) {
      return `The applicant ${facts.reply} the offer`;
    }
    if (action === 'decision.release_scheduled' && facts.at === 'now' && decision) {
      return `Asked to release the decision ${decision} now`;
    }
    const previous = decisionName(facts.previous);
    if (action === 'decision.changed' && decision && previous) {
      return `Changed the decision from ${previous} to ${decision}`;
    }
    if (known && decision) return `${known} ${decision}`;
  }
  if (known) return known;
  const words = action.replace(/[._]+/g, ' ').trim();
  return words === '' ? 'Unknown action' : words.charAt(0).toUpperCase() + words.slice(1);
}

/** The applicant's name from the answers, or null: the page's heading falls back to the address. */
export function applicantName(answers: Record<string, string | boolean>): string | null {
  const name = [answers.first_name, answers.last_name]
    .filter((part): part is string => typeof part === 'string' && part.trim() !== '')
    .map((part) => part.trim())
    .join(' ');
  return name === '' ? null : name;
}
