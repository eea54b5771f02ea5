// Word headers and footers, which mammoth does not read: the text of the default header and
// footer of the document's last section, with PAGE and NUMPAGES fields kept as placeholders so
// each page can show its own number. Applicants put their name and ID there; it must not vanish.
// The parts are read with the streaming parser, so hostile markup costs time in proportion to
// its size (regular expressions over unclosed tags took quadratic time).
import {
  decodeXml,
  readRelationships,
  walkXml,
  type XmlElement,
  XmlPartError,
} from './package-xml';

/** Placeholders for the page number and the page count inside header and footer text. */
export const PAGE_FIELD = '\u{f0001}';
export const PAGE_COUNT_FIELD = '\u{f0002}';

export interface HeadersAndFooters {
  header: string[];
  footer: string[];
}

const WORD_NAMESPACES = new Set([
  'http://schemas.openxmlformats.org/wordprocessingml/2006/main',
  'http://purl.oclc.org/ooxml/wordprocessingml/main',
]);
const RELATIONSHIP_NAMESPACES = new Set([
  'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
  'http://purl.oclc.org/ooxml/officeDocument/relationships',
]);

const isWord = (element: XmlElement | undefined, local: string) =>
  element !== undefined && element.local === local && WORD_NAMESPACES.has(element.uri);

/** The value of a WordprocessingML attribute (w:type, w:instr...), or of an r:id. */
function attribute(element: XmlElement, local: string, namespaces = WORD_NAMESPACES) {
  return Object.values(element.attributes).find(
    (item) => item.local === local && namespaces.has(item.uri),
  )?.value;
}

const FIELD_PLACEHOLDERS: Readonly<Record<string, string>> = {
  PAGE: PAGE_FIELD,
  NUMPAGES: PAGE_COUNT_FIELD,
  SECTIONPAGES: PAGE_COUNT_FIELD,
};

function fieldPlaceholder(instruction: string): string | undefined {
  const name = instruction.trim().split(/\s+/)[0]?.toUpperCase() ?? '';
  return FIELD_PLACEHOLDERS[name];
}

/** Field instructions only need their first word; the rest is not kept. */
const MAX_INSTRUCTION = 64;

interface Field {
  instruction: string;
  inResult: boolean;
}

/**
 * The text of each paragraph of a header or footer part. Simple fields (<w:fldSimple>) and
 * complex ones (begin, instruction, separate, cached result, end) show their cached result,
 * except page fields, which become placeholders. Paragraph properties hold tab-stop definitions
 * (<w:tabs><w:tab/>), which are not text. A part that is not well-formed XML gives the paragraphs
 * read before the damage.
 */
export function paragraphsOf(xml: string): string[] {
  const paragraphs: string[] = [];
  const open: string[] = [];
  const fields: Field[] = [];
  /** Simple page fields being read: their cached number is replaced by the placeholder. */
  const pageFields = new Set<XmlElement>();
  let inProperties = 0;
  let inPageField = 0;

  const append = (text: string) => {
    if (open.length > 0) open[open.length - 1] += text;
  };
  /** Whether the text being read is an instruction, or the stale number of a page field. */
  const hidden = () => {
    const field = fields.at(-1);
    return (
      inProperties > 0 ||
      inPageField > 0 ||
      (field !== undefined &&
        (!field.inResult || fieldPlaceholder(field.instruction) !== undefined))
    );
  };

  try {
    walkXml(xml, {
      open(element) {
        if (!WORD_NAMESPACES.has(element.uri)) return;
        if (element.local === 'p') open.push('');
        else if (element.local === 'pPr') inProperties++;
        else if (element.local === 'fldSimple') {
          const placeholder = fieldPlaceholder(attribute(element, 'instr') ?? '');
          if (placeholder) {
            if (!hidden()) append(placeholder);
            pageFields.add(element);
            inPageField++;
          }
        } else if (element.local === 'fldChar') {
          const type = attribute(element, 'fldCharType');
          const field = fields.at(-1);
          if (type === 'begin') fields.push({ instruction: '', inResult: false });
          else if (type === 'separate' && field) field.inResult = true;
          else if (type === 'end' && field) {
            fields.pop();
            const placeholder = fieldPlaceholder(field.instruction);
            if (placeholder && !hidden()) append(placeholder);
          }
        } else if (!hidden()) {
          if (element.local === 'tab') append('    ');
          else if (element.local === 'br') append('\n');
        }
      },
      close(element) {
        if (!WORD_NAMESPACES.has(element.uri)) return;
        if (element.local === 'p') {
          const text = open.pop() ?? '';
          if (text.trim() !== '') paragraphs.push(text);
        } else if (element.local === 'pPr') inProperties--;
        else if (pageFields.delete(element)) inPageField--;
      },
      text(characters, parent) {
        const field = fields.at(-1);
        if (isWord(parent, 'instrText')) {
          if (field && !field.inResult && field.instruction.length < MAX_INSTRUCTION) {
            field.instruction += characters;
          }
        } else if (isWord(parent, 't') && !hidden()) {
          append(characters);
        }
      },
    });
  } catch (error) {
    if (!(error instanceof XmlPartError)) throw error;
  }
  return paragraphs;
}

/** Names of the package parts this module reads. */
export function isHeaderFooterSource(name: string): boolean {
  return /^word\/(document\.xml|_rels\/document\.xml\.rels|(header|footer)\d*\.xml)$/.test(name);
}

/** The header and footer references of the document's sections, in order. */
function sectionReferences(
  documentXml: string,
): Array<{ kind: string; type?: string; id?: string }> {
  const references: Array<{ kind: string; type?: string; id?: string }> = [];
  try {
    walkXml(documentXml, {
      open(element) {
        if (isWord(element, 'headerReference') || isWord(element, 'footerReference')) {
          references.push({
            kind: element.local,
            type: attribute(element, 'type'),
            id: attribute(element, 'id', RELATIONSHIP_NAMESPACES),
          });
        }
      },
    });
  } catch (error) {
    if (!(error instanceof XmlPartError)) throw error;
  }
  return references;
}

export function readHeadersAndFooters(files: Map<string, Uint8Array>): HeadersAndFooters {
  const read = (name: string) => {
    const bytes = files.get(name);
    return (bytes && decodeXml(bytes)?.text) ?? '';
  };
  const references = sectionReferences(read('word/document.xml'));
  let relationships: ReturnType<typeof readRelationships> = [];
  try {
    relationships = readRelationships(read('word/_rels/document.xml.rels'));
  } catch (error) {
    if (!(error instanceof XmlPartError)) throw error;
  }
  /** The part the last section's default reference points to (else its last one). */
  const partText = (kind: 'headerReference' | 'footerReference') => {
    const ofKind = references.filter((reference) => reference.kind === kind);
    const chosen = ofKind.findLast((reference) => reference.type === 'default') ?? ofKind.at(-1);
    const target = relationships.find((item) => item.id === chosen?.id)?.target;
    if (!chosen?.id || !target) return [];
    return paragraphsOf(read(`word/${target.replace(/^\/?(word\/)?/, '')}`));
  };
  return { header: partText('headerReference'), footer: partText('footerReference') };
}
