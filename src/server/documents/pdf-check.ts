// Opening uploaded PDFs strictly, and rewriting them into a clean PDF that keeps every page.
import { EncryptedPDFError, PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { DocumentRejectedError, documentMessages } from './document-errors';

export function isPdf(bytes: Uint8Array): boolean {
  // '%PDF-' at the very start: readers tolerate junk before it, but an upload has no reason to.
  return [0x25, 0x50, 0x44, 0x46, 0x2d].every((byte, i) => bytes[i] === byte);
}

/**
 * Loads an uploaded PDF or refuses it with the applicant's message. `throwOnInvalidObject` makes
 * damaged objects (a truncated download, a broken export) fail here instead of producing a PDF
 * with holes later.
 */
export async function loadUploadedPdf(bytes: Uint8Array): Promise<PDFDocument> {
  if (!isPdf(bytes)) throw new DocumentRejectedError(documentMessages.pdfDamaged);
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { throwOnInvalidObject: true, updateMetadata: false });
  } catch (error) {
    throw new DocumentRejectedError(
      (await isEncrypted(bytes, error))
        ? documentMessages.pdfEncrypted
        : documentMessages.pdfDamaged,
      { cause: error },
    );
  }
  let pageCount: number;
  try {
    // Walking the page tree catches a catalog that points nowhere.
    pageCount = doc.getPages().length;
  } catch (error) {
    throw new DocumentRejectedError(documentMessages.pdfDamaged, { cause: error });
  }
  if (pageCount === 0) throw new DocumentRejectedError(documentMessages.pdfNoPages);
  return doc;
}

/**
 * pdf-lib is compiled to ES5, where `instanceof` fails for subclasses of Error, so its
 * EncryptedPDFError is also recognised by its message.
 */
function isEncryptedPdfError(error: unknown): boolean {
  return (
    error instanceof EncryptedPDFError ||
    (error instanceof Error && /\bis encrypted\b/.test(error.message))
  );
}

/**
 * Whether a PDF that failed to load is encrypted: the strict parse may stop at an object it
 * cannot read before it sees /Encrypt, so a lenient parse gets the final word. An applicant with
 * a locked file must hear "password", not "damaged".
 */
async function isEncrypted(bytes: Uint8Array, error: unknown): Promise<boolean> {
  if (isEncryptedPdfError(error)) return true;
  try {
    await PDFDocument.load(bytes, { updateMetadata: false });
    return false;
  } catch (lenientError) {
    return isEncryptedPdfError(lenientError);
  }
}

/** Actions a reviewer's viewer must never run from an applicant's file. */
const ACTIVE_ACTIONS = new Set(['JavaScript', 'Launch', 'SubmitForm', 'ImportData', 'ResetForm']);

function removeActiveContent(dict: PDFDict): void {
  dict.delete(PDFName.of('AA'));
  const action = dict.lookupMaybe(PDFName.of('A'), PDFDict);
  const kind = action?.lookupMaybe(PDFName.of('S'), PDFName)?.decodeText();
  if (kind && ACTIVE_ACTIONS.has(kind)) dict.delete(PDFName.of('A'));
}

/**
 * The normalised PDF: every page copied into a new document (with inherited attributes resolved
 * by pdf-lib's copier), so document-level JavaScript, open actions, attachments and incremental
 * updates are dropped, and active actions on pages and annotations are removed.
 */
export async function normalisePdf(bytes: Uint8Array): Promise<Uint8Array> {
  const source = await loadUploadedPdf(bytes);
  try {
    const output = await PDFDocument.create();
    const pages = await output.copyPages(source, source.getPageIndices());
    for (const page of pages) {
      removeActiveContent(page.node);
      const annotations = page.node.Annots();
      for (let i = 0; annotations && i < annotations.size(); i++) {
        const annotation = annotations.lookupMaybe(i, PDFDict);
        if (annotation) removeActiveContent(annotation);
      }
      output.addPage(page);
    }
    return await output.save();
  } catch (error) {
    throw new DocumentRejectedError(documentMessages.pdfDamaged, { cause: error });
  }
}
