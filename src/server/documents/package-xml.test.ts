import { describe, expect, it } from 'vitest';
import {
  attributeRange,
  cutRanges,
  decodeXml,
  encodeXml,
  isForeignEncodedXml,
  MAX_XML_DEPTH,
  readRelationships,
  walkXml,
  type XmlElement,
  XmlPartError,
} from './package-xml';

function elements(text: string): Array<{ name: string; source: string }> {
  const found: Array<{ name: string; source: string }> = [];
  walkXml(text, {
    close(element, end) {
      found.push({ name: element.name, source: text.slice(element.start, end) });
    },
  });
  return found;
}

function firstElement(text: string, name: string): XmlElement {
  let found: XmlElement | undefined;
  walkXml(text, {
    open(element) {
      if (element.name === name && !found) found = element;
    },
  });
  if (!found) throw new Error(`no <${name}>`);
  return found;
}

describe('XML in Office packages', () => {
  it('reports where each element starts and ends, whatever the characters before it', () => {
    const text =
      '\uFEFF<?xml version="1.0"?>\n<a:r xmlns:a="urn:a" x="1>2">😀é<b/><!-- <c> --><c  y = \'2\' >in<![CDATA[<d>]]></c ></a:r>';
    expect(elements(text)).toEqual([
      { name: 'b', source: '<b/>' },
      { name: 'c', source: "<c  y = '2' >in<![CDATA[<d>]]></c >" },
      { name: 'a:r', source: text.slice(text.indexOf('<a:r')) },
    ]);
  });

  it('passes text with entities decoded, and says which element holds it', () => {
    const texts: string[] = [];
    walkXml('<p><t>a &amp; b</t><t><![CDATA[c]]></t></p>', {
      text(characters, parent) {
        texts.push(`${parent?.name}:${characters}`);
      },
    });
    expect(texts).toEqual(['t:a & b', 't:c']);
  });

  it('refuses a DTD, malformed XML and unbound prefixes', () => {
    for (const text of [
      '<!DOCTYPE a [<!ENTITY e SYSTEM "http://remote.invalid/">]><a>&e;</a>',
      '<!DOCTYPE a><a/>',
      '<a><b></a>',
      '<a x:y="1"/>',
      '<a/><b/>',
      '<a>&undefined;</a>',
    ]) {
      expect(() => walkXml(text, {}), text).toThrow(XmlPartError);
    }
  });

  it('resolves namespace prefixes where they are declared, rebound and by default', () => {
    const found: string[] = [];
    walkXml(
      '<a xmlns="urn:default" xmlns:p="urn:one"><p:b xml:space="preserve" plain="1"><c xmlns:p="urn:two" p:x="1"/></p:b><p:d/></a>',
      {
        open(element) {
          const attributes = Object.values(element.attributes)
            .filter((attribute) => !attribute.name.startsWith('xmlns'))
            .map((attribute) => `${attribute.local}@${attribute.uri}`);
          found.push([`${element.local}@${element.uri}`, ...attributes].join(' '));
        },
      },
    );
    expect(found).toEqual([
      'a@urn:default',
      'b@urn:one space@http://www.w3.org/XML/1998/namespace plain@',
      'c@urn:default x@urn:two',
      'd@urn:one',
    ]);
  });

  it('refuses nesting deeper than libxml2 reads, and reads deep nesting in linear time', () => {
    const started = performance.now();
    expect(() => walkXml('<a>'.repeat(1_000_000), {})).toThrow(XmlPartError);
    const deep = `${'<a>'.repeat(MAX_XML_DEPTH)}${'</a>'.repeat(MAX_XML_DEPTH)}`;
    expect(() => walkXml(deep, {})).not.toThrow();
    const wide = `<w:hdr xmlns:w="urn:w">${'<w:p><w:r/></w:p>'.repeat(200_000)}</w:hdr>`;
    expect(() => walkXml(wide, {})).not.toThrow();
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('finds an attribute in its tag, with the space before it and its value', () => {
    const text =
      '<a:blip xmlns:a="urn:a" xmlns:r="urn:r"\n  r:embed="rId1"   r:link = \'rId2\' cstate="print"/>';
    const element = firstElement(text, 'a:blip');
    const { whole, value } = attributeRange(text, element, 'r:link');
    expect(text.slice(...whole)).toBe("   r:link = 'rId2'");
    expect(text.slice(...value)).toBe('rId2');
    expect(cutRanges(text, [whole])).toBe(text.replace("   r:link = 'rId2'", ''));
    expect(cutRanges(text, [value])).toBe(text.replace("'rId2'", "''"));
  });

  it('cuts overlapping and nested ranges once', () => {
    expect(
      cutRanges('0123456789', [
        [2, 4],
        [1, 3],
        [6, 9],
        [7, 8],
      ]),
    ).toBe('0459');
  });

  it('decodes UTF-8 and UTF-16 with or without a byte order mark, and encodes them back', () => {
    const text = '<a>é😀</a>';
    const samples = [
      new TextEncoder().encode(text),
      new TextEncoder().encode(`\uFEFF${text}`),
      new Uint8Array(Buffer.from(`\uFEFF${text}`, 'utf16le')),
      new Uint8Array(Buffer.from(text, 'utf16le')),
      new Uint8Array(Buffer.from(`\uFEFF${text}`, 'utf16le').swap16()),
    ];
    for (const bytes of samples) {
      const decoded = decodeXml(bytes);
      expect(decoded?.text.replace('\uFEFF', '')).toBe(text);
      if (decoded) expect(Buffer.from(encodeXml(decoded)).equals(Buffer.from(bytes))).toBe(true);
    }
  });

  it('says which bytes are not XML it reads', () => {
    expect(decodeXml(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toBeNull();
    expect(decodeXml(new TextEncoder().encode('plain text'))).toBeNull();
    expect(decodeXml(new Uint8Array([0x3c, 0x61, 0xff, 0x3e]))).toBeNull();
    expect(isForeignEncodedXml(new Uint8Array([0x4c, 0x6f, 0xa7, 0x94]))).toBe(true);
    expect(isForeignEncodedXml(new Uint8Array([0, 0, 0, 0x3c]))).toBe(true);
    expect(isForeignEncodedXml(new TextEncoder().encode('<a/>'))).toBe(false);
  });

  it('reads relationships with their places in the text', () => {
    const xml =
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="t/image" Target="media/a.png"/>' +
      '<Relationship Id="rId2" Type="t/hyperlink" Target="https://example.edu/?a=1&amp;b=2" TargetMode="External"></Relationship>' +
      '</Relationships>';
    const relationships = readRelationships(xml);
    expect(relationships.map(({ range, ...rest }) => rest)).toEqual([
      { id: 'rId1', type: 't/image', target: 'media/a.png', targetMode: '' },
      {
        id: 'rId2',
        type: 't/hyperlink',
        target: 'https://example.edu/?a=1&b=2',
        targetMode: 'External',
      },
    ]);
    expect(xml.slice(...(relationships[1]?.range ?? [0, 0]))).toMatch(
      /^<Relationship Id="rId2".*<\/Relationship>$/,
    );
  });
});
