import { describe, expect, it } from 'vitest';
import { parseHtml, textContent } from './html-tree';

describe('html tree for mammoth output', () => {
  it('parses nesting, attributes, void elements and entities', () => {
    const nodes = parseHtml(
      '<p>A &amp; B &lt;c&gt; &#233;&#x4E2D;<br />line</p><img src="x" alt="a &quot;b&quot;" /><ul><li>one<ul><li>two</li></ul></li></ul>',
    );
    expect(nodes.map((node) => (node.type === 'element' ? node.tag : 'text'))).toEqual([
      'p',
      'img',
      'ul',
    ]);
    const [p, img, ul] = nodes;
    expect(p && textContent(p)).toBe('A & B <c> é中\nline');
    expect(img?.type === 'element' && img.attrs).toEqual({ src: 'x', alt: 'a "b"' });
    expect(ul && textContent(ul)).toBe('onetwo');
  });

  it('keeps stray markup as text and closes what is left open', () => {
    const nodes = parseHtml('<p>1 < 2 </em> and <strong>bold');
    expect(nodes).toHaveLength(1);
    const [p] = nodes;
    expect(p && textContent(p)).toBe('1 < 2  and bold');
  });
});
