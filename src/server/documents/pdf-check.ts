// Opening uploaded PDFs strictly, and rewriting them into a clean PDF that keeps every page.
import { inflateRawSync, constants as zlibConstants } from 'node:zlib';
import {
  EncryptedPDFError,
  ParseSpeeds,
  PDFArray,
  type PDFContext,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  type PDFObject,
  PDFParser,
  PDFRawStream,
  PDFRef,
  PDFStream,
  PDFString,
} from 'pdf-lib';
import { DocumentRejectedError, documentMessages } from './document-errors';
import { isPdf } from './pdf-signature';

/**
 * Loads an uploaded PDF or refuses it with the applicant's message. `throwOnInvalidObject` makes
 * damaged objects (a truncated download, a broken export) fail here instead of producing a PDF
 * with holes later.
 */
export async function loadUploadedPdf(bytes: Uint8Array): Promise<PDFDocument> {
  if (!isPdf(bytes)) throw new DocumentRejectedError(documentMessages.pdfDamaged);
  const { encrypted } = await readLeniently(bytes);
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { throwOnInvalidObject: true, updateMetadata: false });
  } catch (error) {
    // The strict parse may stop at an object it cannot read before it sees /Encrypt, so the
    // lenient one has the final word: an applicant with a locked file must hear "password".
    throw new DocumentRejectedError(
      encrypted || isEncryptedPdfError(error)
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
 * What decoding the object streams and cross-reference streams of one PDF may produce: far more
 * than any 1 MB upload holds, far less than the gigabytes a deflate bomb of that size inflates to.
 */
export const MAX_STRUCTURE_BYTES = 32 * 1024 * 1024;

const FLATE = PDFName.of('FlateDecode');
/** Filters pdf-lib would decode; in a structure stream only Flate is ever written. */
const OTHER_DECODED_FILTERS = ['LZWDecode', 'ASCII85Decode', 'ASCIIHexDecode', 'RunLengthDecode'];

/**
 * The size of a stream once its Flate filters are undone, decoded by node:zlib, which stops the
 * moment `budget` is passed (pdf-lib's own decoder would first inflate all of it into memory).
 * A structure stream with another filter, or Flate data zlib finds broken (where pdf-lib's
 * lenient decoder might go on producing bytes), is refused.
 */
function decodedSize(stream: PDFRawStream, budget: number): number {
  const filter = stream.dict.lookup(PDFName.of('Filter'));
  const filters =
    filter === undefined
      ? []
      : filter instanceof PDFArray
        ? filter.asArray().map((item) => stream.dict.context.lookup(item))
        : [filter];
  let data = stream.contents;
  for (const name of filters) {
    if (name !== FLATE) {
      const decodable =
        name instanceof PDFName && OTHER_DECODED_FILTERS.includes(name.decodeText());
      // pdf-lib refuses filters it does not know without decoding anything.
      if (!decodable) return 0;
      throw new DocumentRejectedError(documentMessages.pdfDamaged, {
        cause: new Error(`structure stream filtered with ${name}`),
      });
    }
    const [cmf = 0, flg = 0] = data;
    // The zlib header pdf-lib checks before it inflates anything.
    if ((cmf & 0x0f) !== 8 || ((cmf << 8) + flg) % 31 !== 0 || flg & 0x20) return 0;
    try {
      data = inflateRawSync(data.subarray(2), {
        finishFlush: zlibConstants.Z_SYNC_FLUSH,
        maxOutputLength: Math.max(1, budget),
      });
    } catch (error) {
      const tooLarge = (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE';
      throw new DocumentRejectedError(
        tooLarge ? documentMessages.pdfTooBig : documentMessages.pdfDamaged,
        { cause: error },
      );
    }
  }
  return data.byteLength;
}

/**
 * Parses the PDF once as pdf-lib's lenient loader does, which says whether it is encrypted, and
 * measures each object stream and cross-reference stream (the only streams pdf-lib decodes while
 * loading) before pdf-lib decodes it: the file is refused when together they would pass
 * MAX_STRUCTURE_BYTES. The parse is the loader's own (an instance of its parser with
 * `parseObject` observed), so it meets exactly the streams a load would decode.
 */
async function readLeniently(bytes: Uint8Array): Promise<{ encrypted: boolean }> {
  const parser = PDFParser.forBytesWithOptions(bytes, ParseSpeeds.Fast, false, false);
  const parseObject = parser.parseObject.bind(parser);
  let remaining = MAX_STRUCTURE_BYTES;
  let refusal: DocumentRejectedError | undefined;
  parser.parseObject = () => {
    const object = parseObject();
    if (object instanceof PDFRawStream) {
      const type = object.dict.lookup(PDFName.of('Type'));
      if (type === PDFName.of('ObjStm') || type === PDFName.of('XRef')) {
        try {
          remaining -= decodedSize(object, remaining + 1);
          if (remaining < 0) throw new DocumentRejectedError(documentMessages.pdfTooBig);
        } catch (error) {
          refusal ??= error instanceof DocumentRejectedError ? error : undefined;
          // The lenient parse skips an object that throws here, so pdf-lib never decodes it.
          throw error;
        }
      }
    }
    return object;
  };
  let encrypted = false;
  try {
    const context = await parser.parseDocument();
    encrypted = context.lookup(context.trailerInfo.Encrypt) !== undefined;
  } catch {
    // A file this parse cannot read is refused by the strict load, with its own message.
  }
  if (refusal) throw refusal;
  return { encrypted };
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
 * Every action type of the PDF specification (ISO 32000-2, 12.6.4), to tell action dictionaries
 * from other dictionaries with an /S entry (transitions, groups, border styles).
 */
const ACTION_TYPES = new Set([
  'GoTo',
  'GoToR',
  'GoToE',
  'GoToDp',
  'Launch',
  'Thread',
  'URI',
  'Sound',
  'Movie',
  'Hide',
  'Named',
  'SubmitForm',
  'ResetForm',
  'ImportData',
  'SetOCGState',
  'Rendition',
  'Trans',
  'GoTo3DView',
  'JavaScript',
  'RichMediaExecute',
]);

/** Named actions that only turn pages; others run viewer commands (print, save, close...). */
const PAGE_TURNS = new Set(['NextPage', 'PrevPage', 'FirstPage', 'LastPage']);

/** Addresses a link may open: the web and mail, never a file or a script. */
const SAFE_URI = /^(https?|mailto):/i;

/** Annotations that carry files, sound, video or 3D content, with their own actions. */
const ACTIVE_ANNOTATIONS = new Set([
  'FileAttachment',
  'Sound',
  'Movie',
  'Screen',
  'RichMedia',
  '3D',
]);

/** Keys whose whole value only serves running something: triggers and scripts. */
const ACTIVE_KEYS = ['AA', 'OpenAction', 'JS', 'JavaScript'].map((key) => PDFName.of(key));

/** Longer /Next chains than this are cut: no document needs them, a hostile one could nest deep. */
const MAX_ACTION_CHAIN = 64;

const NAME = {
  S: PDFName.of('S'),
  N: PDFName.of('N'),
  URI: PDFName.of('URI'),
  Next: PDFName.of('Next'),
  Type: PDFName.of('Type'),
  Annots: PDFName.of('Annots'),
  Subtype: PDFName.of('Subtype'),
};

function textOf(value: PDFObject | undefined): string {
  return value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : '';
}

function isAction(dict: PDFDict): boolean {
  const type = dict.lookup(NAME.S);
  return (
    dict.lookup(NAME.Type) === PDFName.of('Action') ||
    (type instanceof PDFName && ACTION_TYPES.has(type.decodeText()))
  );
}

/**
 * The actions a reviewer's viewer may run from an applicant's file: go to a page, open a web or
 * mail address, turn a page.
 */
function isSafeAction(action: PDFDict): boolean {
  const type = action.lookup(NAME.S);
  if (type === PDFName.of('GoTo')) return true;
  if (type === PDFName.of('URI')) return SAFE_URI.test(textOf(action.lookup(NAME.URI)).trim());
  if (type === PDFName.of('Named')) {
    const name = action.lookup(NAME.N);
    return name instanceof PDFName && PAGE_TURNS.has(name.decodeText());
  }
  return false;
}

/**
 * Cleans the actions of one document: an action is kept only when it is safe, and its /Next chain
 * (one action or an array, nested to any depth, possibly circular) keeps only its safe actions.
 */
class ActionCleaner {
  /** Verdicts of actions already cleaned, so shared actions are cleaned once. */
  private readonly verdicts = new Map<PDFDict, boolean>();
  /** Actions on the chain being cleaned: meeting one again is a cycle, which is cut. */
  private readonly onChain = new Set<PDFDict>();

  constructor(private readonly context: PDFContext) {}

  /** Whether the action stays; its /Next chain is cleaned in place. */
  keep(action: PDFDict, depth = 0): boolean {
    const known = this.verdicts.get(action);
    if (known !== undefined) return known;
    if (this.onChain.has(action) || depth > MAX_ACTION_CHAIN || !isSafeAction(action)) {
      if (!this.onChain.has(action)) this.verdicts.set(action, false);
      return false;
    }
    this.onChain.add(action);
    const next = action.lookup(NAME.Next);
    if (next instanceof PDFDict) {
      if (!this.keep(next, depth + 1)) action.delete(NAME.Next);
    } else if (next instanceof PDFArray) {
      const kept: PDFObject[] = [];
      for (let i = 0; i < next.size(); i++) {
        const item = next.lookup(i);
        if (item instanceof PDFDict && this.keep(item, depth + 1)) kept.push(next.get(i));
      }
      if (kept.length > 0) action.set(NAME.Next, this.context.obj(kept));
      else action.delete(NAME.Next);
    } else if (next !== undefined) {
      action.delete(NAME.Next);
    }
    this.onChain.delete(action);
    this.verdicts.set(action, true);
    return true;
  }
}

/** Every dictionary reachable from the catalog, streams' dictionaries included, each once. */
function* reachableDicts(context: PDFContext): Generator<PDFDict> {
  const seen = new Set<PDFObject>();
  const pending: PDFObject[] = [context.trailerInfo.Root, context.trailerInfo.Info].filter(
    (object): object is PDFObject => object !== undefined,
  );
  while (pending.length > 0) {
    let object = pending.pop();
    if (object instanceof PDFRef) object = context.lookup(object);
    if (!object || seen.has(object)) continue;
    seen.add(object);
    if (object instanceof PDFStream) object = object.dict;
    if (object instanceof PDFDict) {
      yield object;
      for (const [, value] of object.entries()) pending.push(value);
    } else if (object instanceof PDFArray) {
      pending.push(...object.asArray());
    }
  }
}

/** The refs reachable from the catalog (and the info dictionary). */
function reachableRefs(context: PDFContext): Set<PDFRef> {
  const refs = new Set<PDFRef>();
  const pending: PDFObject[] = [context.trailerInfo.Root, context.trailerInfo.Info].filter(
    (object): object is PDFObject => object !== undefined,
  );
  while (pending.length > 0) {
    const object = pending.pop();
    if (object instanceof PDFRef) {
      if (refs.has(object)) continue;
      refs.add(object);
      const target = context.lookup(object);
      if (target) pending.push(target);
    } else if (object instanceof PDFStream) {
      pending.push(object.dict);
    } else if (object instanceof PDFDict) {
      for (const [, value] of object.entries()) pending.push(value);
    } else if (object instanceof PDFArray) {
      pending.push(...object.asArray());
    }
  }
  return refs;
}

/**
 * Removes everything a viewer would run from the document: trigger dictionaries (/AA), open
 * actions, scripts, annotations that carry files or media, and every action that is not a safe
 * link, wherever it sits, including inside /Next chains. Objects nothing refers to any more are
 * dropped, so no script is even written out.
 */
function removeActiveContent(doc: PDFDocument): void {
  const { context } = doc;
  const cleaner = new ActionCleaner(context);
  for (const dict of reachableDicts(context)) {
    for (const key of ACTIVE_KEYS) dict.delete(key);
    const annotations = dict.lookup(NAME.Annots);
    if (annotations instanceof PDFArray) {
      for (let i = annotations.size() - 1; i >= 0; i--) {
        const subtype = annotations.lookupMaybe(i, PDFDict)?.lookup(NAME.Subtype);
        if (subtype instanceof PDFName && ACTIVE_ANNOTATIONS.has(subtype.decodeText())) {
          annotations.remove(i);
        }
      }
    }
    for (const [key, value] of dict.entries()) {
      if (key === NAME.Next) continue;
      const target = value instanceof PDFRef ? context.lookup(value) : value;
      if (target instanceof PDFDict && isAction(target) && !cleaner.keep(target)) {
        dict.delete(key);
      } else if (target instanceof PDFArray) {
        for (let i = target.size() - 1; i >= 0; i--) {
          const item = target.lookup(i);
          if (item instanceof PDFDict && isAction(item) && !cleaner.keep(item)) target.remove(i);
        }
      }
    }
  }
  const reachable = reachableRefs(context);
  for (const [ref] of context.enumerateIndirectObjects()) {
    if (!reachable.has(ref)) context.delete(ref);
  }
}

/**
 * The normalised PDF: every page copied into a new document (with inherited attributes resolved
 * by pdf-lib's copier), so the catalog's scripts, open actions, attachments, forms and incremental
 * updates stay behind, and then everything a viewer would run is removed from what was copied.
 */
export async function normalisePdf(bytes: Uint8Array): Promise<Uint8Array> {
  const source = await loadUploadedPdf(bytes);
  try {
    const output = await PDFDocument.create();
    const pages = await output.copyPages(source, source.getPageIndices());
    for (const page of pages) output.addPage(page);
    removeActiveContent(output);
    return await output.save();
  } catch (error) {
    throw new DocumentRejectedError(documentMessages.pdfDamaged, { cause: error });
  }
}
