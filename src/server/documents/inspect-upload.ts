// The server's check of an uploaded file, after the browser's: the same spec rules on name and
// size, then the content itself, so a renamed program, a damaged or locked file, or a zip bomb
// fails with a sentence the applicant can act on instead of reaching the converter.
import {
  checkFileMeta,
  type DocumentKind,
  FILE_TYPE_MESSAGE,
  kindFromFileName,
} from '../../shared/documents/file-rules';
import { lazy } from '../runtime/lazy';
import { DocumentRejectedError, documentMessages } from './document-errors';
import { isJpeg, isPng, readJpegInfo, readPngInfo } from './image-info';
import { decodeXml, readRelationships, XmlPartError } from './package-xml';
import { isPdf } from './pdf-signature';
import { readZip, ZipError, type ZipLimits } from './zip-reader';

export type InspectResult = { ok: true; kind: DocumentKind } | { ok: false; message: string };

/**
 * Limits on a DOCX package. A 1 MB upload of real Word text unpacks to a few MB; 1000 parts and
 * 20 MB leave room for pictures and odd producers while keeping a zip bomb to a bounded cost.
 */
export const DOCX_LIMITS: ZipLimits = {
  maxEntries: 1000,
  maxTotalUncompressedBytes: 20 * 1024 * 1024,
};

const OLE_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];

/** pdf-lib loads with the first PDF checked, not with the server. */
const pdfCheck = lazy(() => import('./pdf-check'));

const startsWith = (bytes: Uint8Array, signature: number[]) =>
  signature.every((byte, i) => bytes[i] === byte);

/** What the first bytes say the file is: one of the allowed kinds, an OLE file, or unknown. */
export function sniffKind(bytes: Uint8Array): DocumentKind | 'ole' | null {
  if (isPng(bytes)) return 'png';
  if (isJpeg(bytes)) return 'jpeg';
  if (isPdf(bytes)) return 'pdf';
  if (startsWith(bytes, ZIP_SIGNATURE)) return 'docx';
  // Word saves password-protected .docx files (and old .doc files) as OLE compound files.
  if (startsWith(bytes, OLE_SIGNATURE)) return 'ole';
  return null;
}

/** Content types of a Word main document part: document, template, and their macro variants. */
const WORD_MAIN_TYPE =
  /application\/vnd\.(?:openxmlformats-officedocument\.wordprocessingml\.(?:document|template)|ms-word\.(?:document|template)\.macroEnabled(?:\.12)?)\.main\+xml/;

/**
 * The main document part named by the package relationships (usually word/document.xml). The
 * relationships are read with the streaming parser: a regular expression over unclosed tags took
 * quadratic time, and a 1 MB upload can unpack to 20 MB of them.
 */
function mainDocumentPart(packageRels: Uint8Array | undefined): string {
  const xml = packageRels ? decodeXml(packageRels) : null;
  if (xml) {
    try {
      const main = readRelationships(xml.text).find((relationship) =>
        /\/officeDocument$/.test(relationship.type),
      );
      if (main?.target) return main.target.replace(/^\//, '');
    } catch (error) {
      if (!(error instanceof XmlPartError)) throw error;
    }
  }
  return 'word/document.xml';
}

/**
 * Checks a DOCX as an OOXML package: the ZIP within limits (entry count and declared size from
 * the central directory first, then every part inflated within one budget and CRC-checked),
 * [Content_Types].xml naming a Word main part, and that part (word/document.xml, or wherever
 * _rels/.rels points) present. Returns the contents of the parts `keep` asks for.
 */
export function checkDocxPackage(
  bytes: Uint8Array,
  keep: (name: string) => boolean = () => false,
): Map<string, Uint8Array> {
  let files: Map<string, Uint8Array>;
  let names: Set<string>;
  try {
    const zip = readZip(
      bytes,
      DOCX_LIMITS,
      (name) => name === '[Content_Types].xml' || name === '_rels/.rels' || keep(name),
    );
    files = zip.files;
    names = new Set(zip.entries.map((entry) => entry.name));
  } catch (error) {
    if (!(error instanceof ZipError)) throw error;
    const message =
      error.reason === 'too-many-entries' || error.reason === 'too-large'
        ? documentMessages.docxTooBig
        : error.reason === 'encrypted'
          ? documentMessages.docxProtected
          : documentMessages.docxDamaged;
    throw new DocumentRejectedError(message, { cause: error });
  }
  const contentTypesBytes = files.get('[Content_Types].xml');
  if (!contentTypesBytes) {
    // A ZIP that is not an Office package at all (photos, a renamed archive).
    throw new DocumentRejectedError(documentMessages.docxNotWord);
  }
  const contentTypes = new TextDecoder().decode(contentTypesBytes);
  const main = mainDocumentPart(files.get('_rels/.rels'));
  if (!WORD_MAIN_TYPE.test(contentTypes)) {
    // An Excel or PowerPoint file renamed to .docx, for instance.
    throw new DocumentRejectedError(documentMessages.docxNotWord);
  }
  if (!names.has(main)) {
    throw new DocumentRejectedError(documentMessages.docxDamaged);
  }
  return files;
}

async function checkContent(bytes: Uint8Array, kind: DocumentKind): Promise<void> {
  switch (kind) {
    case 'png':
      readPngInfo(bytes);
      return;
    case 'jpeg':
      readJpegInfo(bytes);
      return;
    case 'pdf':
      await (await pdfCheck()).loadUploadedPdf(bytes);
      return;
    case 'docx':
      checkDocxPackage(bytes);
      return;
  }
}

/**
 * The spec's rules on name and size (first failing message, exactly as the browser shows it),
 * then magic bytes that must agree with the extension, then a structural check of the content.
 */
export async function inspectUpload(bytes: Uint8Array, fileName: string): Promise<InspectResult> {
  const metaMessage = checkFileMeta({ name: fileName, size: bytes.byteLength });
  if (metaMessage) return { ok: false, message: metaMessage };
  const named = kindFromFileName(fileName);
  if (!named) return { ok: false, message: FILE_TYPE_MESSAGE };

  const actual = sniffKind(bytes);
  if (actual !== named) {
    if (actual === 'ole' && named === 'docx') {
      return { ok: false, message: documentMessages.docxProtected };
    }
    // Any ZIP sniffs as 'docx', so only the image and PDF signatures are sure enough to name.
    if (actual === null || actual === 'ole' || actual === 'docx') {
      return { ok: false, message: documentMessages.notWhatTheNameSays(named) };
    }
    return { ok: false, message: documentMessages.wrongExtension(actual, named) };
  }

  try {
    await checkContent(bytes, named);
  } catch (error) {
    if (error instanceof DocumentRejectedError) return { ok: false, message: error.message };
    throw error;
  }
  return { ok: true, kind: named };
}
