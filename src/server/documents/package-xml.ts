// The XML inside Office packages, read with a streaming parser (saxes), so a part costs time and
// memory in proportion to its size whatever it holds: a DOM of 20 MB of tiny elements takes
// gigabytes, and regular expressions over unclosed tags take quadratic time. The walk reports
// where each element starts and ends in the text, so a part can be rewritten by cutting exact
// ranges out of it while every other character stays as it was.
import { SaxesParser } from 'saxes';

/** A part that is not well-formed XML, or XML a package must not hold (a DTD). */
export class XmlPartError extends Error {
  override readonly name = 'XmlPartError';
}

export type XmlEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

export interface DecodedXml {
  /** The characters, a byte order mark included, so encoding them again gives the same bytes. */
  text: string;
  encoding: XmlEncoding;
}

/**
 * First bytes of XML in encodings other than UTF-8 and UTF-16 (UCS-4 in its four byte orders,
 * EBCDIC), which OOXML does not allow but which other XML parsers detect and read.
 */
const FOREIGN_XML_SIGNATURES = [
  [0x00, 0x00, 0x00, 0x3c],
  [0x3c, 0x00, 0x00, 0x00],
  [0x00, 0x00, 0x3c, 0x00],
  [0x00, 0x3c, 0x00, 0x00],
  [0x00, 0x00, 0xfe, 0xff],
  [0xff, 0xfe, 0x00, 0x00],
  [0x4c, 0x6f, 0xa7, 0x94],
];

/** Whether the bytes start like XML in an encoding this module does not read. */
export function isForeignEncodedXml(bytes: Uint8Array): boolean {
  return FOREIGN_XML_SIGNATURES.some((signature) =>
    signature.every((byte, i) => bytes[i] === byte),
  );
}

/** The encoding the first bytes announce (XML 1.0, appendix F), UTF-8 unless they say UTF-16. */
function encodingOf(bytes: Uint8Array): XmlEncoding {
  const [first, second] = bytes;
  if ((first === 0xff && second === 0xfe) || (first === 0x3c && second === 0x00)) {
    return 'utf-16le';
  }
  if ((first === 0xfe && second === 0xff) || (first === 0x00 && second === 0x3c)) {
    return 'utf-16be';
  }
  return 'utf-8';
}

/** UTF-8 bytes whose first character after a byte order mark and white space is '<'. */
function startsWithTag(bytes: Uint8Array): boolean {
  let at = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (bytes[at] === 0x20 || bytes[at] === 0x09 || bytes[at] === 0x0a || bytes[at] === 0x0d) at++;
  return bytes[at] === 0x3c;
}

/**
 * The part as XML text, or null when it is not XML: bytes that are not valid in their encoding,
 * or characters that do not start with '<' (after a byte order mark and white space).
 */
export function decodeXml(bytes: Uint8Array): DecodedXml | null {
  const encoding = encodingOf(bytes);
  if (encoding === 'utf-8' && !startsWithTag(bytes)) return null;
  let text: string;
  try {
    text = new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
  return /^\uFEFF?[ \t\r\n]*</.test(text) ? { text, encoding } : null;
}

export function encodeXml({ text, encoding }: DecodedXml): Uint8Array {
  if (encoding === 'utf-8') return new TextEncoder().encode(text);
  const bytes = Buffer.from(text, 'utf16le');
  if (encoding === 'utf-16be') bytes.swap16();
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export interface XmlAttribute {
  /** The qualified name as written, e.g. 'r:link'. */
  name: string;
  local: string;
  /** The namespace the prefix is bound to ('' for an attribute without one). */
  uri: string;
  value: string;
}

export interface XmlElement {
  /** The qualified name as written, e.g. 'w:fldChar'. */
  name: string;
  local: string;
  /** The namespace the prefix is bound to ('' for none). */
  uri: string;
  attributes: Readonly<Record<string, XmlAttribute>>;
  /** Offset of the '<' that opens the start tag. */
  start: number;
  /** Offset just after the '>' that closes the start tag. */
  startTagEnd: number;
  selfClosing: boolean;
}

export interface XmlVisitor {
  open?(element: XmlElement): void;
  /** `end` is the offset just after the element's last character. */
  close?(element: XmlElement, end: number): void;
  /** Character data (entities decoded), with the element it sits in. */
  text?(text: string, parent: XmlElement | undefined): void;
}

/**
 * Deeper nesting is refused: Word nests a few dozen levels, libxml2 (LibreOffice's parser) stops
 * at 2048 even in its "huge" mode, and every open element costs memory until it closes.
 */
export const MAX_XML_DEPTH = 2048;

const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NAMESPACE = 'http://www.w3.org/2000/xmlns/';

/**
 * Namespace prefixes in scope, each with the stack of its bindings. saxes can resolve namespaces
 * itself, but it looks each prefix up through every enclosing element, which makes deeply nested
 * markup cost quadratic time; here each lookup is one step.
 */
class NamespaceScope {
  private readonly bindings = new Map<string, string[]>([
    ['xml', [XML_NAMESPACE]],
    ['xmlns', [XMLNS_NAMESPACE]],
  ]);

  /** Binds the element's xmlns declarations; returns the prefixes to release at its end. */
  declare(attributes: Record<string, string>): string[] {
    const declared: string[] = [];
    for (const [name, value] of Object.entries(attributes)) {
      if (name !== 'xmlns' && !name.startsWith('xmlns:')) continue;
      const prefix = name === 'xmlns' ? '' : name.slice(6);
      if (prefix !== '' && value === '') {
        throw new XmlPartError(`namespace prefix ${prefix} bound to nothing`);
      }
      const stack = this.bindings.get(prefix) ?? [];
      stack.push(value);
      this.bindings.set(prefix, stack);
      declared.push(prefix);
    }
    return declared;
  }

  release(prefixes: readonly string[]): void {
    for (const prefix of prefixes) this.bindings.get(prefix)?.pop();
  }

  /** Splits a qualified name and resolves its prefix; attributes without one have no namespace. */
  resolve(name: string, isAttribute: boolean): { local: string; uri: string } {
    const colon = name.indexOf(':');
    const prefix = colon < 0 ? '' : name.slice(0, colon);
    const local = colon < 0 ? name : name.slice(colon + 1);
    if (isAttribute && prefix === '')
      return { local, uri: name === 'xmlns' ? XMLNS_NAMESPACE : '' };
    const uri = this.bindings.get(prefix)?.at(-1);
    if (uri === undefined) {
      if (prefix === '') return { local, uri: '' };
      throw new XmlPartError(`unbound namespace prefix: "${prefix}"`);
    }
    return { local, uri };
  }
}

/**
 * Walks well-formed XML, reporting each element with its offsets in `text`. Malformed XML, any
 * DTD, unbound prefixes and nesting deeper than MAX_XML_DEPTH are refused (XmlPartError): a DTD
 * can declare entities that expand a part a million times or name files to read, and Office
 * packages never carry one.
 */
export function walkXml(text: string, visitor: XmlVisitor): void {
  const parser = new SaxesParser<{ xmlns: false; position: true }>({
    xmlns: false,
    position: true,
  });
  const scope = new NamespaceScope();
  const open: Array<{ element: XmlElement; declared: string[] }> = [];
  parser.on('doctype', () => {
    throw new XmlPartError('a DTD (<!DOCTYPE ...>) is not allowed in an Office package');
  });
  parser.on('error', (error) => {
    throw new XmlPartError(error.message);
  });
  parser.on('opentag', (tag) => {
    if (open.length >= MAX_XML_DEPTH) {
      throw new XmlPartError(`elements nested deeper than ${MAX_XML_DEPTH}`);
    }
    const startTagEnd = parser.position;
    const declared = scope.declare(tag.attributes);
    const attributes: Record<string, XmlAttribute> = {};
    for (const [name, value] of Object.entries(tag.attributes)) {
      attributes[name] = { name, value, ...scope.resolve(name, true) };
    }
    const element: XmlElement = {
      name: tag.name,
      ...scope.resolve(tag.name, false),
      attributes,
      // A start tag holds no other '<': it is not allowed in attribute values.
      start: text.lastIndexOf('<', startTagEnd - 1),
      startTagEnd,
      selfClosing: tag.isSelfClosing,
    };
    open.push({ element, declared });
    visitor.open?.(element);
  });
  parser.on('closetag', () => {
    const closed = open.pop();
    if (!closed) return;
    scope.release(closed.declared);
    visitor.close?.(closed.element, parser.position);
  });
  const onText = (characters: string) => visitor.text?.(characters, open.at(-1)?.element);
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.write(text).close();
}

const isSpace = (character: string | undefined) =>
  character === ' ' || character === '\t' || character === '\n' || character === '\r';

export interface AttributeRange {
  /** The attribute with the white space before it: cutting it leaves a well-formed tag. */
  whole: [number, number];
  /** The characters between the quotes. */
  value: [number, number];
}

/**
 * Where attribute `name` (as written, e.g. 'r:link') sits in the element's start tag. The tag
 * has been parsed already, so its syntax is known to be right.
 */
export function attributeRange(text: string, element: XmlElement, name: string): AttributeRange {
  let at = element.start + 1 + element.name.length;
  const end = element.startTagEnd;
  while (at < end) {
    const from = at;
    while (isSpace(text[at])) at++;
    if (text[at] === '>' || text[at] === '/') break;
    const nameStart = at;
    while (at < end && !isSpace(text[at]) && text[at] !== '=') at++;
    const found = text.slice(nameStart, at);
    while (isSpace(text[at])) at++;
    at++; // '='
    while (isSpace(text[at])) at++;
    const quote = text[at] ?? '"';
    const valueStart = at + 1;
    const valueEnd = text.indexOf(quote, valueStart);
    if (valueEnd < 0) break;
    at = valueEnd + 1;
    if (found === name) return { whole: [from, at], value: [valueStart, valueEnd] };
  }
  throw new XmlPartError(`attribute ${name} not found in <${element.name}>`);
}

/** The text without the given ranges; overlapping and nested ranges are cut once. */
export function cutRanges(text: string, ranges: ReadonlyArray<readonly [number, number]>): string {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let out = '';
  let at = 0;
  for (const [start, end] of sorted) {
    if (end <= at) continue;
    if (start > at) out += text.slice(at, start);
    at = Math.max(at, end);
  }
  return out + text.slice(at);
}

export interface Relationship {
  id: string;
  type: string;
  target: string;
  targetMode: string;
  /** The <Relationship> element's place in the text. */
  range: [number, number];
}

/** The <Relationship> elements of a relationships part (any namespace, as readers differ). */
export function readRelationships(xml: string): Relationship[] {
  const relationships: Relationship[] = [];
  walkXml(xml, {
    close(element, end) {
      if (element.local !== 'Relationship') return;
      const value = (name: string) => element.attributes[name]?.value ?? '';
      relationships.push({
        id: value('Id'),
        type: value('Type'),
        target: value('Target'),
        targetMode: value('TargetMode'),
        range: [element.start, end],
      });
    },
  });
  return relationships;
}
