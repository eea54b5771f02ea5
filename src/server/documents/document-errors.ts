// Every way a document can be refused, as a sentence the applicant can act on (docs/design.md: "every
// failure is a sentence the user can act on"). The spec's four upload messages live in
// src/shared/documents/file-rules.ts; these cover what only the server can see in the content.
import type { DocumentKind } from '../../shared/documents/file-rules';

export const KIND_LABEL: Readonly<Record<DocumentKind, string>> = {
  png: 'PNG image',
  jpeg: 'JPEG image',
  pdf: 'PDF',
  docx: 'Word document (.docx)',
};

/** The extension to suggest when the content is one allowed kind and the name says another. */
const KIND_EXTENSION: Readonly<Record<DocumentKind, string>> = {
  png: '.png',
  jpeg: '.jpg',
  pdf: '.pdf',
  docx: '.docx',
};

export const MAX_IMAGE_MEGAPIXELS = 40;
/**
 * PNGs with transparency or interlacing are decoded in JavaScript (pdf-lib) to build the soft
 * mask: 36 megapixels took 4.6 s and 570 MB there, so they get a lower limit. Opaque PNGs and
 * JPEGs are never decoded and keep the higher one.
 */
export const MAX_DECODED_IMAGE_MEGAPIXELS = 16;

export const documentMessages = {
  /** The bytes are none of the allowed kinds (an EXE renamed to .pdf, a text file, ...). */
  notWhatTheNameSays: (kind: DocumentKind) =>
    `This file is not a real ${KIND_LABEL[kind]}, although its name says so. Please upload the original file.`,
  /** The bytes are an allowed kind, just not the one the extension names. */
  wrongExtension: (actual: DocumentKind, named: DocumentKind) =>
    `This file is a ${KIND_LABEL[actual]}, but its name ends like a ${KIND_LABEL[named]}. Please rename it to end in ${KIND_EXTENSION[actual]} and upload it again.`,
  pdfEncrypted:
    'This PDF is password-protected. Please remove the password (for example by printing it to a new PDF) and upload it again.',
  pdfDamaged:
    'This PDF is damaged and cannot be opened. Please export or save it as a PDF again and upload the new file.',
  pdfNoPages: 'This PDF has no pages. Please upload a PDF with at least one page.',
  pdfTooBig:
    'This PDF is too large to process once unpacked. Please print it to a new PDF and upload the new file.',
  docxProtected:
    'This Word document is password-protected or saved in the old .doc format. Please remove the password, save it as .docx, and upload it again.',
  docxDamaged:
    'This Word document is damaged and cannot be opened. Please open it in Word, save it as .docx again, and upload the new file.',
  docxNotWord:
    'This file is not a Word document, although its name ends in .docx. Please save it from Word as .docx, or as PDF, and upload it again.',
  docxTooBig:
    'This Word document is too large to process once unpacked. Please remove large pictures or save it as PDF, and upload it again.',
  imageDamaged:
    'This image is damaged and cannot be opened. Please save it again as PNG or JPEG and upload the new file.',
  imageTooManyPixels: `This image has too many pixels to process (more than ${MAX_IMAGE_MEGAPIXELS} megapixels). Please resize it and upload it again.`,
  transparentImageTooManyPixels: `This image has transparency and too many pixels to process (more than ${MAX_DECODED_IMAGE_MEGAPIXELS} megapixels). Please resize it, or save it as JPEG, and upload it again.`,
  conversionTimedOut:
    'This document took too long to convert. Please save it as PDF and upload the PDF instead.',
  conversionFailed:
    'This document could not be converted to PDF. Please save it as PDF and upload the PDF instead.',
} as const;

/**
 * A refusal whose `message` is safe and useful to show to the applicant (it becomes the FAILED
 * conversion status message). Anything else thrown is a bug, and callers show a generic sentence.
 */
export class DocumentRejectedError extends Error {
  override readonly name = 'DocumentRejectedError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
