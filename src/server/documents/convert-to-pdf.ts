// One entry point for the conversion job: an inspected upload in, a PDF out, or a
// DocumentRejectedError whose message becomes the FAILED status the applicant reads.
import type { DocumentKind } from '../../shared/documents/file-rules';
import { lazy } from '../runtime/lazy';
import { DocumentRejectedError, documentMessages } from './document-errors';
import { stripExternalReferences } from './docx-external-references';

// Each converter loads with the first file that needs it, not with the server: pdf-lib with the
// first conversion, mammoth with the first DOCX laid out in JavaScript, and the search for
// soffice and unshare on PATH with the first DOCX.
const docxJs = lazy(() => import('./docx-to-pdf-js'));
const images = lazy(() => import('./image-to-pdf'));
const libreOffice = lazy(() => import('./libreoffice'));
const pdfCheck = lazy(() => import('./pdf-check'));

export interface ConvertOptions {
  /**
   * 'auto' (default): LibreOffice when `soffice` is on PATH, falling back to the JavaScript path
   * if it fails or times out; 'libreoffice': LibreOffice only (fails without it); 'js': never it.
   */
  docxEngine?: 'auto' | 'libreoffice' | 'js';
  /** The soffice executable; default: found on PATH. null acts as if it were not installed. */
  sofficePath?: string | null;
  /** Time limit of one LibreOffice run (default 60 s). */
  libreOfficeTimeoutMs?: number;
  /** Told about anything the reviewer's copy lacks or that fell back, for the logs. */
  onNotice?: (notice: string) => void;
}

async function docxToPdf(upload: Uint8Array, options: ConvertOptions): Promise<Uint8Array> {
  // Neither converter may see a reference it could follow off the server.
  const { docx: bytes, removed } = stripExternalReferences(upload);
  if (removed > 0) {
    options.onNotice?.(
      `Removed ${removed} reference(s) to files outside the document before converting it.`,
    );
  }
  const engine = options.docxEngine ?? 'auto';
  const office = engine === 'js' ? null : await libreOffice();
  const soffice =
    options.sofficePath === undefined ? (office?.findSoffice() ?? null) : options.sofficePath;
  if (office && soffice) {
    try {
      const pdf = await office.convertWithLibreOffice(
        bytes,
        soffice,
        options.libreOfficeTimeoutMs ?? office.LIBREOFFICE_TIMEOUT_MS,
      );
      // Never hand on a PDF that does not open.
      await (await pdfCheck()).loadUploadedPdf(pdf);
      return pdf;
    } catch (error) {
      const reason = error instanceof office.LibreOfficeError ? error.reason : 'failed';
      if (engine === 'libreoffice') {
        throw new DocumentRejectedError(
          reason === 'timeout'
            ? documentMessages.conversionTimedOut
            : documentMessages.conversionFailed,
          { cause: error },
        );
      }
      options.onNotice?.(
        `LibreOffice conversion ${reason === 'timeout' ? 'timed out' : 'failed'} (${(error as Error).message}); used the JavaScript converter instead.`,
      );
    }
  } else if (engine === 'libreoffice') {
    throw new DocumentRejectedError(documentMessages.conversionFailed, {
      cause: new Error('LibreOffice (soffice) is not installed'),
    });
  }
  const result = await (await docxJs()).docxToPdfJs(bytes);
  if (result.replacedCharacters > 0) {
    options.onNotice?.(
      `${result.replacedCharacters} character(s) had no font and were drawn as '?'.`,
    );
  }
  return result.pdf;
}

/**
 * Converts an upload that inspectUpload accepted into the PDF the reviewers see: images on a
 * fitted US Letter page, PDFs normalised (every page kept), DOCX through LibreOffice or the
 * JavaScript layout. Refusals are DocumentRejectedError; any other error is a bug.
 */
export async function convertToPdf(
  bytes: Uint8Array,
  kind: DocumentKind,
  options: ConvertOptions = {},
): Promise<Uint8Array> {
  switch (kind) {
    case 'png':
    case 'jpeg':
      return (await images()).imageToPdf(bytes, kind);
    case 'pdf':
      return (await pdfCheck()).normalisePdf(bytes);
    case 'docx':
      return docxToPdf(bytes, options);
  }
}
