// One entry point for the conversion job: an inspected upload in, a PDF out, or a
// DocumentRejectedError whose message becomes the FAILED status the applicant reads.
import type { DocumentKind } from '../../shared/documents/file-rules';
import { DocumentRejectedError, documentMessages } from './document-errors';
import { stripExternalReferences } from './docx-external-references';
import { docxToPdfJs } from './docx-to-pdf-js';
import { imageToPdf } from './image-to-pdf';
import {
  convertWithLibreOffice,
  findSoffice,
  LIBREOFFICE_TIMEOUT_MS,
  LibreOfficeError,
} from './libreoffice';
import { loadUploadedPdf, normalisePdf } from './pdf-check';

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

/** Which path converts DOCX files on this machine by default. */
export function docxConverterName(): 'libreoffice' | 'js' {
  return findSoffice() ? 'libreoffice' : 'js';
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
  const soffice = options.sofficePath === undefined ? findSoffice() : options.sofficePath;
  if (engine !== 'js' && soffice) {
    try {
      const pdf = await convertWithLibreOffice(
        bytes,
        soffice,
        options.libreOfficeTimeoutMs ?? LIBREOFFICE_TIMEOUT_MS,
      );
      // Never hand on a PDF that does not open.
      await loadUploadedPdf(pdf);
      return pdf;
    } catch (error) {
      const reason = error instanceof LibreOfficeError ? error.reason : 'failed';
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
  const result = await docxToPdfJs(bytes);
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
      return imageToPdf(bytes, kind);
    case 'pdf':
      return normalisePdf(bytes);
    case 'docx':
      return docxToPdf(bytes, options);
  }
}
