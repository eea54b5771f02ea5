import { CHECKLIST_STATE_LABELS, type ChecklistState } from '../../../shared/staff/application-api';

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
  'applications.export_courses_csv': 'Exported its courses in a CSV file',
  'applications.export_zip': 'Exported in a ZIP of PDFs',
  'applications.export_zip_download': 'Downloaded in a ZIP of PDFs',
  'decision.recorded': 'Recorded the decision',
  'decision.changed': 'Changed the decision',
  'decision.release_scheduled': 'Scheduled the release of the decision',
  'decision.released': 'Released the decision',
  'decision.replied': 'The applicant replied to the offer',
  'coursework.updated': 'The applicant updated the coursework after submit',
  'credit.view': 'Opened the transfer credit evaluation',
  'credit.course_reviewed': 'Reviewed a course for transfer credit',
  'credit.review_undone': 'Undid a course review',
  'credit.transcript_attached': 'Attached a college transcript',
  'credit.transcript_view': 'Opened a college transcript',
  'credit.estimate_preview': 'Previewed the credit estimate',
  'credit.estimate_released': 'Released the credit estimate',
  'review.view': 'Opened the reads',
  'review.committee_view': 'Opened every read (committee)',
  'review.assigned': 'Assigned reads',
  'review.reassigned': 'Reassigned a read',
  'review.started': 'Started a read',
  'review.submitted': 'Submitted a read',
  'review.refused': 'Was refused a read',
  'application.notes_view': 'Opened the internal notes',
  'application.note_added': 'Added an internal note',
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
