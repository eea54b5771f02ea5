// Word headers and footers, which mammoth does not read: the text of the default header and
// footer of the document's last section, with PAGE and NUMPAGES fields kept as placeholders so
// each page can show its own number. Applicants put their name and ID there; it must not vanish.
import { decodeEntities } from './html-tree';

/** Placeholders for the page number and the page count inside header and footer text. */
export const PAGE_FIELD = '\u{f0001}';
export const PAGE_COUNT_FIELD = '\u{f0002}';

export interface HeadersAndFooters {
  header: string[];
  footer: string[];
}

function attribute(tag: string, name: string): string | undefined {
  return new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
}

/** The part a header or footer reference of the last section points to (default, else first). */
function referencedPart(
  documentXml: string,
  rels: string,
  kind: 'header' | 'footer',
): string | null {
  const references = [...documentXml.matchAll(new RegExp(`<w:${kind}Reference\\b[^>]*>`, 'g'))].map(
    (match) => ({ type: attribute(match[0], 'w:type'), id: attribute(match[0], 'r:id') }),
  );
  const chosen =
    references.findLast((reference) => reference.type === 'default') ?? references.at(-1);
  if (!chosen?.id) return null;
  for (const match of rels.matchAll(/<Relationship\b[^>]*>/g)) {
    if (attribute(match[0], 'Id') === chosen.id) {
      const target = attribute(match[0], 'Target');
      return target ? `word/${target.replace(/^\/?(word\/)?/, '')}` : null;
    }
  }
  return null;
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

/** The text of each paragraph of a header or footer part. */
export function paragraphsOf(xml: string): string[] {
  // Simple fields first: <w:fldSimple w:instr="PAGE">cached result</w:fldSimple>.
  const simplified = xml.replace(
    /<w:fldSimple\b([^>]*)>([\s\S]*?)<\/w:fldSimple>/g,
    (_whole, attrs: string, inner: string) => {
      const placeholder = fieldPlaceholder(decodeEntities(attribute(attrs, 'w:instr') ?? ''));
      return placeholder ? `<w:t>${placeholder}</w:t>` : inner;
    },
  );
  const paragraphs: string[] = [];
  // Paragraph properties hold tab-stop definitions (<w:tabs><w:tab .../>), which are not text.
  const withoutProperties = simplified.replace(/<w:pPr\b[\s\S]*?<\/w:pPr>/g, '');
  for (const paragraph of withoutProperties.matchAll(/<w:p\b[^>]*>([\s\S]*?)<\/w:p>/g)) {
    let text = '';
    // Complex fields: begin, instruction, separate, cached result, end.
    const fields: Array<{ instruction: string; inResult: boolean }> = [];
    const tokens =
      /<w:t\b[^>]*>([\s\S]*?)<\/w:t>|<w:instrText\b[^>]*>([\s\S]*?)<\/w:instrText>|<w:fldChar\b[^>]*>|<w:tab\b[^>]*\/>|<w:br\b[^>]*\/>/g;
    for (const token of (paragraph[1] ?? '').matchAll(tokens)) {
      const [whole, t, instruction] = token;
      const field = fields.at(-1);
      if (whole.startsWith('<w:fldChar')) {
        const type = attribute(whole, 'w:fldCharType');
        if (type === 'begin') fields.push({ instruction: '', inResult: false });
        else if (type === 'separate' && field) field.inResult = true;
        else if (type === 'end' && field) {
          fields.pop();
          text += fieldPlaceholder(field.instruction) ?? '';
        }
      } else if (instruction !== undefined) {
        if (field) field.instruction += decodeEntities(instruction);
      } else if (field && (!field.inResult || fieldPlaceholder(field.instruction))) {
        // Inside an instruction, or the stale cached number of a page field: not text.
      } else if (t !== undefined) {
        text += decodeEntities(t);
      } else {
        text += whole.startsWith('<w:tab') ? '    ' : '\n';
      }
    }
    if (text.trim() !== '') paragraphs.push(text);
  }
  return paragraphs;
}

/** Names of the package parts this module reads. */
export function isHeaderFooterSource(name: string): boolean {
  return /^word\/(document\.xml|_rels\/document\.xml\.rels|(header|footer)\d*\.xml)$/.test(name);
}

export function readHeadersAndFooters(files: Map<string, Uint8Array>): HeadersAndFooters {
  const decoder = new TextDecoder();
  const read = (name: string) => {
    const bytes = files.get(name);
    return bytes ? decoder.decode(bytes) : '';
  };
  const documentXml = read('word/document.xml');
  const rels = read('word/_rels/document.xml.rels');
  const partText = (kind: 'header' | 'footer') => {
    const part = referencedPart(documentXml, rels, kind);
    return part ? paragraphsOf(read(part)) : [];
  };
  return { header: partText('header'), footer: partText('footer') };
}
