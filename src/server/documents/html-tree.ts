// A minimal HTML reader for the markup mammoth writes (well-formed, a small set of tags, escaped
// text). A full HTML parser would be a large dependency for input this regular; anything odd is
// kept as text rather than dropped, so no word of the document is lost.

export type HtmlNode = HtmlText | HtmlElement;
export interface HtmlText {
  type: 'text';
  text: string;
}
export interface HtmlElement {
  type: 'element';
  tag: string;
  attrs: Record<string, string>;
  children: HtmlNode[];
}

const VOID_TAGS = new Set(['br', 'img', 'hr', 'col', 'wbr']);
const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const hex = body[1] === 'x' || body[1] === 'X';
      const codePoint = Number.parseInt(body.slice(hex ? 2 : 1), hex ? 16 : 10);
      return codePoint > 0 && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : whole;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? whole;
  });
}

function parseAttributes(source: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const match of source.matchAll(
    /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g,
  )) {
    const name = match[1];
    if (name) attrs[name.toLowerCase()] = decodeEntities(match[2] ?? match[3] ?? match[4] ?? '');
  }
  return attrs;
}

const TOKEN =
  /<!--[\s\S]*?-->|<\/([a-zA-Z][a-zA-Z0-9]*)\s*>|<([a-zA-Z][a-zA-Z0-9]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*(\/?)>|([^<]+)|</g;

/** Parses an HTML fragment into a tree. Unclosed elements close at the end; stray end tags are ignored. */
export function parseHtml(html: string): HtmlNode[] {
  const root: HtmlElement = { type: 'element', tag: '#root', attrs: {}, children: [] };
  const stack: HtmlElement[] = [root];
  const current = () => stack[stack.length - 1] ?? root;
  for (const match of html.matchAll(TOKEN)) {
    const [whole, endTag, startTag, attrSource, selfClosing, text] = match;
    if (whole.startsWith('<!--')) continue;
    if (endTag !== undefined) {
      const tag = endTag.toLowerCase();
      const index = stack.findLastIndex((element) => element.tag === tag);
      if (index > 0) stack.length = index;
      continue;
    }
    if (startTag !== undefined) {
      const tag = startTag.toLowerCase();
      const element: HtmlElement = {
        type: 'element',
        tag,
        attrs: parseAttributes(attrSource ?? ''),
        children: [],
      };
      current().children.push(element);
      if (!selfClosing && !VOID_TAGS.has(tag)) stack.push(element);
      continue;
    }
    // Text, or a lone '<' that starts no tag: both are kept as text.
    current().children.push({ type: 'text', text: decodeEntities(text ?? whole) });
  }
  return root.children;
}

/** All the text under a node, as it would read. */
export function textContent(node: HtmlNode): string {
  if (node.type === 'text') return node.text;
  if (node.tag === 'br') return '\n';
  return node.children.map(textContent).join('');
}
