import { attachedDocuments, type PrintableApplication } from '../../../shared/form/printable';

/** The pane's choice that shows the whole application as one PDF. */
export const APPLICATION_PDF_CHOICE = 'application';

/** An attached document the pane can show: its file question's key and label. */
export interface PaneDocument {
  answerKey: string;
  label: string;
}

/** The attached documents in the order the application PDF appends them. */
export function paneDocuments(application: PrintableApplication): PaneDocument[] {
  return attachedDocuments(application).map((document) => ({
    answerKey: document.answerKey,
    label: document.row.label,
  }));
}

/**
 * The pane's choice for this application: the reader's last choice when this application has
 * that document too, else the application PDF.
 */
export function paneChoiceFor(remembered: string, documents: readonly PaneDocument[]): string {
  return documents.some((document) => document.answerKey === remembered)
    ? remembered
    : APPLICATION_PDF_CHOICE;
}
