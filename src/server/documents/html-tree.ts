// A tree of the HTML mammoth writes, read with htmlparser2: a tokenizer built for HTML's rules
// (void elements, entities, stray '<', unclosed and stray tags) rather than regular expressions
// that only cover the markup they were written for. Anything odd is kept as text rather than
// dropped, so no word of the document is lost.
import { Parser } from 'htmlparser2';

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

/** Parses an HTML fragment into a tree. Unclosed elements close at the end; stray end tags are ignored. */
export function parseHtml(html: string): HtmlNode[] {
  const root: HtmlElement = { type: 'element', tag: '#root', attrs: {}, children: [] };
  const stack: HtmlElement[] = [root];
  const current = () => stack.at(-1) ?? root;
  const parser = new Parser(
    {
      onopentag(tag, attrs) {
        const element: HtmlElement = { type: 'element', tag, attrs: { ...attrs }, children: [] };
        current().children.push(element);
        stack.push(element);
      },
      onclosetag() {
        if (stack.length > 1) stack.pop();
      },
      ontext(text) {
        const siblings = current().children;
        const last = siblings.at(-1);
        // The tokenizer hands text over in pieces (around entities, say); one node reads better.
        if (last?.type === 'text') last.text += text;
        else siblings.push({ type: 'text', text });
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  return root.children;
}

/** All the text under a node, as it would read. */
export function textContent(node: HtmlNode): string {
  if (node.type === 'text') return node.text;
  if (node.tag === 'br') return '\n';
  return node.children.map(textContent).join('');
}
