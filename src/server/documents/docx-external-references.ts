// A Word package can point outside itself: pictures linked instead of embedded, templates,
// subdocuments, frames, linked OLE objects, fields that include another file, and embedded
// documents that point outside in turn. LibreOffice fetches such addresses while it converts, so
// an applicant could make the server request any address it can reach and read the answer in the
// PDF. This module removes every such reference from every part (and from packages embedded in
// it) before any converter sees the file, and keeps everything else byte for byte: an external
// hyperlink stays, as it is only text and a link in the PDF. Why strip rather than refuse:
// docs/decisions/020-documents-never-reach-the-network.md.
import { zipSync } from 'fflate';
import { checkDocxPackage, DOCX_LIMITS } from './inspect-upload';
import {
  attributeRange,
  cutRanges,
  type DecodedXml,
  decodeXml,
  encodeXml,
  isForeignEncodedXml,
  readRelationships,
  walkXml,
  type XmlElement,
  XmlPartError,
} from './package-xml';
import { readZip, ZipError } from './zip-reader';

export interface StrippedDocx {
  /** The package without external references; the very bytes given when nothing was found. */
  docx: Uint8Array;
  /** How many references, fields and unreadable embedded parts were removed. */
  removed: number;
}

const RELATIONSHIP_NAMESPACES = new Set([
  'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
  'http://purl.oclc.org/ooxml/officeDocument/relationships',
]);
const WORD_NAMESPACES = new Set([
  'http://schemas.openxmlformats.org/wordprocessingml/2006/main',
  'http://purl.oclc.org/ooxml/wordprocessingml/main',
]);
const OFFICE_NAMESPACE = 'urn:schemas-microsoft-com:office:office';
const XLINK_NAMESPACE = 'http://www.w3.org/1999/xlink';
const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';

/** Elements that may point at an external hyperlink relationship: a link, never a fetch. */
const HYPERLINK_ELEMENTS = new Set(['hyperlink', 'hlinkClick', 'hlinkHover', 'hlinkMouseOver']);

/** Elements that only exist to point at another file, so they go with the reference. */
const REFERENCE_ELEMENTS = new Set([
  'attachedTemplate',
  'subDoc',
  'altChunk',
  'sourceFileName',
  'OLEObject',
  'objectEmbed',
  'objectLink',
  'externalData',
  'externalReference',
  'dataSource',
  'headerSource',
  'recipientData',
  'src',
  'control',
  'oleObj',
]);

/** Field types whose instruction names a file or program to read. */
const FETCHING_FIELDS = new Set([
  'INCLUDEPICTURE',
  'INCLUDETEXT',
  'INCLUDE',
  'LINK',
  'DDE',
  'DDEAUTO',
  'IMPORT',
  'DATABASE',
]);

/** Packages inside packages inside the upload: Word nests one or two levels; more is a trick. */
const MAX_NESTING = 3;

/** Field instructions only need their first word; the rest is not kept. */
const MAX_INSTRUCTION_KEPT = 256;

const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];
/** OLE compound files: binary OLE objects, macros, ActiveX controls, old Word files. */
const COMPOUND_FILE_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

const startsWith = (bytes: Uint8Array, signature: readonly number[]) =>
  signature.every((byte, i) => bytes[i] === byte);

/** RTF and MHTML, which only an alternative-format chunk import would read. */
function isRtfOrMime(bytes: Uint8Array): boolean {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 16)).trimStart().toLowerCase();
  return head.startsWith('{\\rtf') || head.startsWith('mime-version');
}

/** Whether a field instruction (e.g. ' INCLUDEPICTURE "http://..." \d') reads another file. */
export function isFetchingField(instruction: string): boolean {
  const name = /^[\s"]*([A-Za-z]+)/.exec(instruction)?.[1] ?? '';
  return FETCHING_FIELDS.has(name.toUpperCase());
}

/**
 * Whether a relationship leaves the package: TargetMode="External", or a target that is an
 * absolute address or path (a scheme, '//' or '\') even where it claims to be internal.
 */
function leavesPackage(targetMode: string, target: string): boolean {
  const trimmed = target.trim();
  return (
    targetMode.trim().toLowerCase() === 'external' ||
    /^[A-Za-z][A-Za-z0-9+.-]*:/.test(trimmed) ||
    trimmed.startsWith('//') ||
    trimmed.startsWith('\\')
  );
}

/** An href that stays inside the document: a fragment, inline data or a plain relative path. */
function isLocalHref(href: string): boolean {
  const trimmed = href.trim();
  if (trimmed.startsWith('#') || /^data:/i.test(trimmed)) return true;
  return (
    !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(trimmed) &&
    !/^[/\\]/.test(trimmed) &&
    !trimmed.split(/[/\\]/).includes('..')
  );
}

/** The part a relationships part belongs to: word/_rels/document.xml.rels -> word/document.xml. */
function sourceOfRelationships(name: string): string | null {
  const match = /^((?:.*\/)?)_rels\/([^/]*)\.rels$/.exec(name);
  return match ? `${match[1]}${match[2]}` : null;
}

interface PartReferences {
  /** Relationship ids that pointed outside and were removed. */
  removed: ReadonlySet<string>;
  /** External hyperlink relationships, which only hyperlink elements may use. */
  hyperlinks: ReadonlySet<string>;
}

interface Field {
  inInstruction: boolean;
  instruction: string;
  /** The begin, separate and end markers, and the instruction text elements. */
  ranges: Array<[number, number]>;
  /** The text of the field's cached result, which an enclosing field's instruction reads. */
  result: string;
}

/**
 * The ranges of one XML part to cut: references to removed relationships (the attribute's
 * value, or the whole element when it exists only to point), fields that read other files
 * (unlinked as Word's Ctrl+Shift+F9 does: the cached result stays as plain content), and hrefs
 * that leave the part.
 */
function rangesToCut(
  text: string,
  references: PartReferences,
): { ranges: Array<[number, number]>; count: number } {
  const ranges: Array<[number, number]> = [];
  let count = 0;
  const wholeElements = new Set<XmlElement>();
  const unwrapped = new Set<XmlElement>();
  const fields: Field[] = [];
  let removingDepth = 0;

  const forbidden = (id: string, element: XmlElement) =>
    references.removed.has(id) ||
    (references.hyperlinks.has(id) && !HYPERLINK_ELEMENTS.has(element.local));

  const inWord = (element: XmlElement | undefined, local: string) =>
    element !== undefined && element.local === local && WORD_NAMESPACES.has(element.uri);

  const unlinkIfFetching = (field: Field) => {
    if (!isFetchingField(field.instruction)) return;
    ranges.push(...field.ranges);
    count++;
  };

  walkXml(text, {
    open(element) {
      if (removingDepth > 0) {
        removingDepth++;
        return;
      }
      for (const attribute of Object.values(element.attributes)) {
        const isReference =
          RELATIONSHIP_NAMESPACES.has(attribute.uri) ||
          (attribute.uri === OFFICE_NAMESPACE && attribute.local === 'relid');
        const isHref =
          (attribute.uri === XLINK_NAMESPACE && attribute.local === 'href') ||
          (attribute.uri === '' && attribute.local === 'href' && element.uri === SVG_NAMESPACE);
        if (isReference && forbidden(attribute.value.trim(), element)) {
          count++;
          if (REFERENCE_ELEMENTS.has(element.local)) {
            wholeElements.add(element);
            removingDepth = 1;
            return;
          }
          // Emptied rather than removed: both converters expect the attribute of a picture.
          ranges.push(attributeRange(text, element, attribute.name).value);
        } else if (isHref && !isLocalHref(attribute.value)) {
          count++;
          ranges.push(attributeRange(text, element, attribute.name).whole);
        }
      }
      if (inWord(element, 'fldSimple')) {
        const instruction = Object.values(element.attributes).find(
          (attribute) => attribute.local === 'instr' && WORD_NAMESPACES.has(attribute.uri),
        );
        if (instruction && isFetchingField(instruction.value)) {
          count++;
          unwrapped.add(element);
          ranges.push([element.start, element.startTagEnd]);
        }
      }
    },
    text(characters, parent) {
      if (removingDepth > 0) return;
      const field = fields.at(-1);
      if (!field) return;
      const isInstruction = inWord(parent, 'instrText') || inWord(parent, 'delInstrText');
      if (isInstruction && field.inInstruction) {
        if (field.instruction.length < MAX_INSTRUCTION_KEPT) field.instruction += characters;
      } else if ((inWord(parent, 't') || inWord(parent, 'delText')) && !field.inInstruction) {
        if (field.result.length < MAX_INSTRUCTION_KEPT) field.result += characters;
      }
    },
    close(element, end) {
      if (removingDepth > 0) {
        removingDepth--;
        if (removingDepth === 0 && wholeElements.has(element)) ranges.push([element.start, end]);
        return;
      }
      if (unwrapped.has(element) && !element.selfClosing) {
        ranges.push([text.lastIndexOf('<', end - 1), end]);
      }
      const field = fields.at(-1);
      if (inWord(element, 'fldChar')) {
        const type = Object.values(element.attributes).find(
          (attribute) => attribute.local === 'fldCharType',
        )?.value;
        if (type === 'begin') {
          fields.push({
            inInstruction: true,
            instruction: '',
            ranges: [[element.start, end]],
            result: '',
          });
        } else if (type === 'separate' && field) {
          field.inInstruction = false;
          field.ranges.push([element.start, end]);
        } else if (type === 'end' && field) {
          field.ranges.push([element.start, end]);
          fields.pop();
          const enclosing = fields.at(-1);
          // Word reads a field nested in an instruction as its result:
          // { { QUOTE INCLUDE }PICTURE "..." } is an INCLUDEPICTURE field.
          if (enclosing?.inInstruction && enclosing.instruction.length < MAX_INSTRUCTION_KEPT) {
            enclosing.instruction += field.result;
          }
          unlinkIfFetching(field);
        }
      } else if (
        field?.inInstruction &&
        (inWord(element, 'instrText') || inWord(element, 'delInstrText'))
      ) {
        field.ranges.push([element.start, end]);
      }
    },
  });
  // A field left open to the end of the part is still read by some converters.
  for (const field of fields) unlinkIfFetching(field);
  return { ranges, count };
}

interface Budget {
  entries: number;
  bytes: number;
}

type PartNames = ReadonlySet<string>;

/** The parts the package declares as XML, by extension or content type. */
function declaredXmlParts(files: Map<string, Uint8Array>): PartNames {
  const defaults = new Map<string, string>();
  const overrides = new Map<string, string>();
  const contentTypes = files.get('[Content_Types].xml');
  const decoded = contentTypes ? decodeXml(contentTypes) : null;
  if (decoded) {
    try {
      walkXml(decoded.text, {
        open(element) {
          const value = (name: string) => element.attributes[name]?.value ?? '';
          if (element.local === 'Default') {
            defaults.set(value('Extension').toLowerCase(), value('ContentType'));
          } else if (element.local === 'Override') {
            overrides.set(value('PartName').replace(/^\//, '').toLowerCase(), value('ContentType'));
          }
        },
      });
    } catch (error) {
      if (!(error instanceof XmlPartError)) throw error;
    }
  }
  const declared = new Set<string>();
  for (const name of files.keys()) {
    const lower = name.toLowerCase();
    const type =
      overrides.get(lower) ?? defaults.get(lower.slice(lower.lastIndexOf('.') + 1)) ?? '';
    if (/\.(xml|rels|vml)$/.test(lower) || /xml/i.test(type)) declared.add(name);
  }
  return declared;
}

interface StrippedPackage {
  files: Map<string, Uint8Array>;
  removed: number;
}

/** The part name a relationship target names, relative to its source part (OPC resolution). */
function resolveTarget(source: string, target: string): string {
  const path = target.trim().startsWith('/') ? [] : source.split('/').slice(0, -1);
  for (const segment of target.trim().split('/')) {
    if (segment === '..') path.pop();
    else if (segment !== '.' && segment !== '') path.push(segment);
  }
  const resolved = path.join('/');
  try {
    return decodeURIComponent(resolved).toLowerCase();
  } catch {
    return resolved.toLowerCase();
  }
}

/**
 * Strips one package (the upload, or one embedded in it). Parts are kept, rewritten or dropped:
 * embedded packages are stripped in turn within the upload's limits; OLE compound files and
 * alternative-format chunks that are not Word documents (HTML, RTF, MHTML) cannot be checked and
 * are dropped (an OLE object keeps its picture); a part that says it is XML but does not parse
 * is dropped, as a converter could not read it either.
 */
function stripPackage(
  files: Map<string, Uint8Array>,
  budget: Budget,
  depth: number,
): StrippedPackage {
  const out = new Map<string, Uint8Array>();
  let removed = 0;
  const declaredXml = declaredXmlParts(files);
  const xmlParts = new Map<string, DecodedXml>();
  const drop = (name: string) => {
    out.delete(name);
    xmlParts.delete(name);
    removed++;
  };

  for (const [name, bytes] of files) {
    if (startsWith(bytes, ZIP_SIGNATURE)) {
      const nested = depth < MAX_NESTING ? stripNested(bytes, budget, depth + 1) : null;
      if (nested) {
        out.set(name, nested.bytes);
        removed += nested.removed;
      } else {
        removed++;
      }
      continue;
    }
    if (
      startsWith(bytes, COMPOUND_FILE_SIGNATURE) ||
      isRtfOrMime(bytes) ||
      isForeignEncodedXml(bytes)
    ) {
      removed++;
      continue;
    }
    out.set(name, bytes);
    if (name === '[Content_Types].xml') continue;
    const decoded = decodeXml(bytes);
    if (decoded) xmlParts.set(name, decoded);
    else if (declaredXml.has(name) && bytes.byteLength > 0) drop(name);
  }

  // Keyed in lower case: part names are case-insensitive in OPC, and readers differ.
  const references = new Map<string, { removed: Set<string>; hyperlinks: Set<string> }>();
  const chunks = new Set<string>();
  for (const [name, decoded] of xmlParts) {
    const source = sourceOfRelationships(name);
    if (source === null) continue;
    xmlParts.delete(name);
    let relationships: ReturnType<typeof readRelationships>;
    try {
      relationships = readRelationships(decoded.text);
    } catch (error) {
      if (!(error instanceof XmlPartError)) throw error;
      drop(name);
      continue;
    }
    const key = source.toLowerCase();
    const forSource = references.get(key) ?? { removed: new Set(), hyperlinks: new Set() };
    references.set(key, forSource);
    const cut: Array<[number, number]> = [];
    for (const relationship of relationships) {
      const id = relationship.id.trim();
      const type = relationship.type.trim();
      if (!leavesPackage(relationship.targetMode, relationship.target)) {
        if (/\/aFChunk$/.test(type)) chunks.add(resolveTarget(source, relationship.target));
      } else if (/\/hyperlink$/.test(type)) {
        forSource.hyperlinks.add(id);
      } else {
        forSource.removed.add(id);
        cut.push(relationship.range);
      }
    }
    if (cut.length > 0) {
      removed += cut.length;
      out.set(name, encodeXml({ ...decoded, text: cutRanges(decoded.text, cut) }));
    }
  }

  for (const [name, bytes] of out) {
    if (chunks.has(name.toLowerCase()) && !startsWith(bytes, ZIP_SIGNATURE)) drop(name);
  }

  const none: PartReferences = { removed: new Set(), hyperlinks: new Set() };
  for (const [name, decoded] of xmlParts) {
    let result: ReturnType<typeof rangesToCut>;
    try {
      result = rangesToCut(decoded.text, references.get(name.toLowerCase()) ?? none);
    } catch (error) {
      if (!(error instanceof XmlPartError)) throw error;
      if (declaredXml.has(name)) drop(name);
      continue;
    }
    if (result.ranges.length > 0) {
      removed += result.count;
      out.set(name, encodeXml({ ...decoded, text: cutRanges(decoded.text, result.ranges) }));
    }
  }
  return { files: out, removed };
}

/** An embedded package stripped within what is left of the upload's budget; null drops it. */
function stripNested(
  bytes: Uint8Array,
  budget: Budget,
  depth: number,
): { bytes: Uint8Array; removed: number } | null {
  try {
    const { files } = readZip(
      bytes,
      { maxEntries: budget.entries, maxTotalUncompressedBytes: budget.bytes },
      () => true,
    );
    budget.entries -= files.size;
    for (const content of files.values()) budget.bytes -= content.byteLength;
    const stripped = stripPackage(files, budget, depth);
    return stripped.removed === 0
      ? { bytes, removed: 0 }
      : { bytes: zipParts(stripped.files), removed: stripped.removed };
  } catch (error) {
    if (error instanceof ZipError) return null;
    throw error;
  }
}

function zipParts(files: Map<string, Uint8Array>): Uint8Array {
  return zipSync(Object.fromEntries(files));
}

/**
 * The upload without any reference a converter could follow outside it. The package is checked
 * as inspection checks it (limits, a Word main part) and refused with the same messages.
 */
export function stripExternalReferences(bytes: Uint8Array): StrippedDocx {
  const files = checkDocxPackage(bytes, () => true);
  let inflated = 0;
  for (const content of files.values()) inflated += content.byteLength;
  const budget: Budget = {
    entries: DOCX_LIMITS.maxEntries - files.size,
    bytes: DOCX_LIMITS.maxTotalUncompressedBytes - inflated,
  };
  const stripped = stripPackage(files, budget, 0);
  if (stripped.removed === 0) return { docx: bytes, removed: 0 };
  const docx = zipParts(stripped.files);
  // A main part that could not be read was dropped: the package must still be a Word document.
  checkDocxPackage(docx);
  return { docx, removed: stripped.removed };
}
