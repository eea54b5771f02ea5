import {
  CHECKLIST_STATE_LABELS,
  type ChecklistItem,
  type ChecklistState,
} from '../../../shared/staff/application-api';

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

/** The same sentence twice is not read twice by every screen reader: the repeat differs. */
export function nextAnnouncement(previous: string, text: string): string {
  return previous === text ? `${text}\u00a0` : text;
}

/** The state a row shows: the one being saved while the mark is on its way, else the saved one. */
export function shownState(
  saved: ChecklistState,
  saving: ChecklistState | undefined,
): ChecklistState {
  return saving ?? saved;
}
