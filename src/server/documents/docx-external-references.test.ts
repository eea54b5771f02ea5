import { unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  complexField,
  HOSTILE_DOCX,
  HOSTILE_DOCX_TEXT,
  makeDocxWithHyperlink,
  pictureWithBlip,
  simpleField,
} from '../test/hostile-docx';
import { extractPdfText } from '../test/pdf-text';
import {
  docxXml,
  makeDocx,
  makeFivePageDocx,
  makePng,
  makeSampleDocx,
  makeZipBombDocx,
  WORD_NS,
} from '../test/sample-files';
import { convertToPdf } from './convert-to-pdf';
import { DocumentRejectedError, documentMessages } from './document-errors';
import { isFetchingField, stripExternalReferences } from './docx-external-references';
import { checkDocxPackage } from './inspect-upload';
import { readRelationships } from './package-xml';

/** Addresses of a host that does not exist, so a leftover reference is easy to find. */
const REMOTE = 'http://remote.invalid';
const remote = (name: string) => `${REMOTE}/${name}`;
const RELATIONSHIP_TYPE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

const utf8 = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** Every part, with the parts of embedded packages named 'outer.docx!inner/part.xml'. */
function partsOf(docx: Uint8Array, prefix = ''): Map<string, Uint8Array> {
  const parts = new Map<string, Uint8Array>();
  for (const [name, bytes] of Object.entries(unzipSync(docx))) {
    const isZip = bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03;
    if (isZip)
      for (const [inner, content] of partsOf(bytes, `${prefix}${name}!`)) parts.set(inner, content);
    else parts.set(`${prefix}${name}`, bytes);
  }
  return parts;
}

/**
 * Where the remote address still appears: anywhere but the target of a hyperlink relationship,
 * which is only a link in the PDF.
 */
function remoteReferencesLeft(docx: Uint8Array): string[] {
  const left: string[] = [];
  for (const [name, bytes] of partsOf(docx)) {
    const text = utf8(bytes);
    if (!text.includes(REMOTE)) continue;
    if (name.endsWith('.rels')) {
      for (const relationship of readRelationships(text)) {
        if (relationship.target.includes(REMOTE) && !relationship.type.endsWith('/hyperlink')) {
          left.push(`${name}: ${relationship.id} -> ${relationship.target}`);
        }
      }
    } else {
      left.push(name);
    }
  }
  return left;
}

function part(docx: Uint8Array, name: string): string {
  const bytes = partsOf(docx).get(name);
  if (!bytes) throw new Error(`no part ${name}`);
  return utf8(bytes);
}

const relationship = (id: string, type: string, target: string, external = true) =>
  `<Relationship Id="${id}" Type="${RELATIONSHIP_TYPE}/${type}" Target="${target}"${external ? ' TargetMode="External"' : ''}/>`;

describe('stripping external references from DOCX packages', () => {
  it('returns the very bytes of a document that points nowhere', () => {
    for (const docx of [
      makeSampleDocx(),
      makeFivePageDocx(),
      makeDocxWithHyperlink(remote('transcript')),
      makeDocx(complexField('PAGE', '1') + simpleField('NUMPAGES', '3')),
    ]) {
      const stripped = stripExternalReferences(docx);
      expect(stripped.removed).toBe(0);
      expect(stripped.docx).toBe(docx);
    }
  });

  it.each(Object.keys(HOSTILE_DOCX))('removes the reference: %s', (name) => {
    const make = HOSTILE_DOCX[name];
    if (!make) throw new Error(`no case ${name}`);
    const docx = make(remote);
    // A hyperlink relationship is allowed; the picture borrowing it has a test of its own below.
    if (!name.includes('hyperlink')) expect(remoteReferencesLeft(docx)).not.toEqual([]);
    const stripped = stripExternalReferences(docx);
    expect(stripped.removed).toBeGreaterThan(0);
    expect(remoteReferencesLeft(stripped.docx)).toEqual([]);
    // Still a Word package, with the applicant's text where it was.
    checkDocxPackage(stripped.docx);
    expect(part(stripped.docx, 'word/document.xml')).toContain(HOSTILE_DOCX_TEXT);
  });

  it('keeps a hyperlink, but empties a picture reference that borrows its relationship', () => {
    const make = HOSTILE_DOCX['picture linked through a hyperlink relationship'];
    if (!make) throw new Error('no case');
    const { docx } = stripExternalReferences(make(remote));
    const relationships = readRelationships(part(docx, 'word/_rels/document.xml.rels'));
    expect(relationships.find((item) => item.id === 'rIdRemote')?.target).toBe(
      remote('hyperlink-picture.png'),
    );
    const document = part(docx, 'word/document.xml');
    expect(document).toContain('<w:hyperlink r:id="rIdRemote">');
    expect(document).toContain('<a:blip r:link=""/>');
  });

  it('unlinks a fetching field as Word does, keeping its cached result and nothing else', () => {
    const docx = makeDocx(
      docxXml.paragraph('Before') +
        complexField(`INCLUDETEXT "${remote('a.docx')}"`, 'Included text as last seen') +
        simpleField(`IMPORT "${remote('b.png')}"`, 'Imported picture as last seen') +
        docxXml.paragraph('After'),
    );
    const document = part(stripExternalReferences(docx).docx, 'word/document.xml');
    expect(document).not.toContain('fldChar');
    expect(document).not.toContain('instrText');
    expect(document).not.toContain('fldSimple');
    for (const kept of [
      'Before',
      'Included text as last seen',
      'Imported picture as last seen',
      'After',
    ]) {
      expect(document).toContain(kept);
    }
  });

  it('reads a field name put together by a nested field, as Word does', () => {
    // { { QUOTE "INCLUDE" }PICTURE "address" }: the outer field is an INCLUDEPICTURE.
    const nested =
      '<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r>' +
      '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> QUOTE "INCLUDE" </w:instrText></w:r>' +
      '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>INCLUDE</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>' +
      `<w:r><w:instrText>PICTURE "${remote('nested.png')}"</w:instrText></w:r>` +
      '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>cached</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>';
    const { docx, removed } = stripExternalReferences(makeDocx(nested));
    expect(removed).toBe(1);
    expect(remoteReferencesLeft(docx)).toEqual([]);
    expect(part(docx, 'word/document.xml')).toContain('cached');
  });

  it('unlinks a fetching field that is never closed', () => {
    const open = `<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>INCLUDEPICTURE "${remote('open.png')}"</w:instrText></w:r></w:p>`;
    const { docx } = stripExternalReferences(makeDocx(open));
    expect(remoteReferencesLeft(docx)).toEqual([]);
  });

  it('knows which field types read another file', () => {
    for (const instruction of [
      'INCLUDEPICTURE "x"',
      ' includetext x',
      'LINK Excel.Sheet.12 x',
      'DDE a b',
      'DDEAUTO a b',
      'IMPORT x',
      'INCLUDE x',
      'DATABASE \\c x',
    ]) {
      expect(isFetchingField(instruction), instruction).toBe(true);
    }
    for (const instruction of [
      'PAGE',
      'NUMPAGES',
      'HYPERLINK "https://example.edu"',
      'MERGEFIELD name',
      'TOC \\o',
      'QUOTE "INCLUDEPICTURE"',
      '',
    ]) {
      expect(isFetchingField(instruction), instruction).toBe(false);
    }
  });

  it('removes relationships that leave the package however they are written', () => {
    const targets = [
      ['rIdA', 'http://remote.invalid/a.png', true],
      ['rIdB', 'file:///etc/hostname', true],
      ['rIdC', '\\\\server\\share\\c.png', true],
      ['rIdD', '../../d.png', true],
      ['rIdE', 'HTTP://remote.invalid/e.png', false],
      ['rIdF', '//remote.invalid/f.png', false],
      ['rIdG', 'C:\\pictures\\g.png', false],
    ] as const;
    const docx = makeDocx(targets.map(([id]) => pictureWithBlip(`r:embed="${id}"`)).join(''), {
      relationships: {
        'word/document.xml': targets
          .map(([id, target, external]) =>
            relationship(id, 'image', target.replace(/&/g, '&amp;'), external),
          )
          .join(''),
      },
    });
    const { docx: stripped, removed } = stripExternalReferences(docx);
    expect(removed).toBe(targets.length * 2);
    const left = readRelationships(part(stripped, 'word/_rels/document.xml.rels')).map(
      (item) => item.id,
    );
    expect(left).toEqual(['rId1', 'rId2']);
    expect(part(stripped, 'word/document.xml')).not.toMatch(/r:embed="rId[A-G]"/);
  });

  it('strips packages embedded two levels deep', () => {
    const inner = HOSTILE_DOCX['embedded Word document (altChunk) holding a linked picture'];
    if (!inner) throw new Error('no case');
    const outer = makeDocx(`${docxXml.paragraph(HOSTILE_DOCX_TEXT)}<w:altChunk r:id="rIdChunk"/>`, {
      relationships: {
        'word/document.xml': relationship('rIdChunk', 'aFChunk', 'outer-chunk.docx', false),
      },
      parts: { 'word/outer-chunk.docx': { content: inner(remote) } },
    });
    expect(remoteReferencesLeft(outer)).not.toEqual([]);
    expect(remoteReferencesLeft(stripExternalReferences(outer).docx)).toEqual([]);
  });

  it('drops what it cannot check: OLE binaries, HTML, RTF and MHTML chunks, other encodings', () => {
    const compoundFile = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 1, 2, 3]);
    const ucs4 = new Uint8Array([0x00, 0x00, 0x00, 0x3c, 0, 0, 0, 0x61]);
    const chunks = {
      'word/chunk.html': `<html><body><img src="${remote('chunk.png')}"></body></html>`,
      'word/chunk.xhtml': `<html xmlns="http://www.w3.org/1999/xhtml"><body><img src="${remote('x.png')}"/></body></html>`,
      'word/chunk.rtf': `{\\rtf1 {\\field{\\*\\fldinst INCLUDEPICTURE "${remote('rtf.png')}"}}}`,
      'word/chunk.mht': `MIME-Version: 1.0\r\nContent-Location: ${remote('mht')}\r\n`,
    };
    const chunkIds = Object.keys(chunks).map((_, i) => `rIdChunk${i}`);
    const docx = makeDocx(
      docxXml.paragraph(HOSTILE_DOCX_TEXT) +
        chunkIds.map((id) => `<w:altChunk r:id="${id}"/>`).join('') +
        '<w:p><w:r><w:object><v:shape id="ole1" style="width:48pt;height:48pt"><v:imagedata r:id="rIdImg0"/></v:shape><o:OLEObject Type="Embed" ProgID="Equation.3" ShapeID="ole1" r:id="rIdOle"/></w:object></w:r></w:p>',
      {
        media: [{ name: 'preview.png', bytes: makePng({ width: 8, height: 8 }) }],
        relationships: {
          'word/document.xml':
            Object.keys(chunks)
              .map((name, i) => relationship(chunkIds[i] ?? '', 'aFChunk', name.slice(5), false))
              .join('') + relationship('rIdOle', 'oleObject', 'embeddings/oleObject1.bin', false),
        },
        parts: {
          ...Object.fromEntries(
            Object.entries(chunks).map(([name, content]) => [name, { content }]),
          ),
          'word/embeddings/oleObject1.bin': { content: compoundFile },
          'word/ucs4.xml': { content: ucs4 },
        },
      },
    );
    const names = [...partsOf(stripExternalReferences(docx).docx).keys()];
    for (const dropped of [
      ...Object.keys(chunks),
      'word/embeddings/oleObject1.bin',
      'word/ucs4.xml',
    ]) {
      expect(names).not.toContain(dropped);
    }
    expect(names).toContain('word/media/preview.png');
  });

  it('converts an OLE object whose binary was dropped, showing its picture', async () => {
    const docx = makeDocx(
      `${docxXml.paragraph(HOSTILE_DOCX_TEXT)}<w:p><w:r><w:object><v:shape id="ole1" style="width:48pt;height:48pt"><v:imagedata r:id="rIdImg0"/></v:shape><o:OLEObject Type="Embed" ProgID="Equation.3" ShapeID="ole1" r:id="rIdOle"/></w:object></w:r></w:p>`,
      {
        media: [{ name: 'preview.png', bytes: makePng({ width: 8, height: 8 }) }],
        relationships: {
          'word/document.xml': relationship(
            'rIdOle',
            'oleObject',
            'embeddings/oleObject1.bin',
            false,
          ),
        },
        parts: {
          'word/embeddings/oleObject1.bin': {
            content: new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]),
          },
        },
      },
    );
    const pdf = await convertToPdf(docx, 'docx', { docxEngine: 'js' });
    expect(await extractPdfText(pdf)).toContain(HOSTILE_DOCX_TEXT);
  });

  it('reads UTF-16 parts and writes them back in UTF-16', () => {
    const header = `<?xml version="1.0" encoding="UTF-16"?><w:hdr ${WORD_NS}>${pictureWithBlip('r:link="rIdRemote"')}</w:hdr>`;
    const utf16 = new Uint8Array(Buffer.from(`\uFEFF${header}`, 'utf16le'));
    const docx = makeDocx(docxXml.paragraph(HOSTILE_DOCX_TEXT), {
      sectionXml: '<w:headerReference w:type="default" r:id="rIdHeader"/>',
      relationships: {
        'word/document.xml': relationship('rIdHeader', 'header', 'header1.xml', false),
        'word/header1.xml': relationship('rIdRemote', 'image', remote('utf16.png')),
      },
      parts: { 'word/header1.xml': { content: utf16 } },
    });
    const stripped = partsOf(stripExternalReferences(docx).docx).get('word/header1.xml');
    if (!stripped) throw new Error('header dropped');
    expect([stripped[0], stripped[1]]).toEqual([0xff, 0xfe]);
    expect(new TextDecoder('utf-16le').decode(stripped)).toBe(
      header.replace('r:link="rIdRemote"', 'r:link=""'),
    );
  });

  it('drops a part that carries a DTD, and refuses a main document that does', () => {
    const dtd = `<!DOCTYPE w:hdr [<!ENTITY remote SYSTEM "${remote('entity.xml')}">]>`;
    const docx = makeDocx(docxXml.paragraph(HOSTILE_DOCX_TEXT), {
      sectionXml: '<w:headerReference w:type="default" r:id="rIdHeader"/>',
      relationships: {
        'word/document.xml': relationship('rIdHeader', 'header', 'header1.xml', false),
      },
      parts: {
        'word/header1.xml': {
          content: `<?xml version="1.0"?>${dtd}<w:hdr ${WORD_NS}><w:p><w:r><w:t>&remote;</w:t></w:r></w:p></w:hdr>`,
        },
      },
    });
    expect([...partsOf(stripExternalReferences(docx).docx).keys()]).not.toContain(
      'word/header1.xml',
    );

    const main = makeDocx(docxXml.paragraph('x'));
    const files = unzipSync(main);
    const document = utf8(files['word/document.xml'] ?? new Uint8Array());
    files['word/document.xml'] = new TextEncoder().encode(
      document.replace('<w:document', `${dtd.replace('w:hdr', 'w:document')}<w:document`),
    );
    try {
      stripExternalReferences(zipSync(files));
      throw new Error('expected a refusal');
    } catch (error) {
      expect(error).toBeInstanceOf(DocumentRejectedError);
      expect((error as Error).message).toBe(documentMessages.docxDamaged);
    }
  });

  it('removes hrefs that leave an embedded drawing, keeping those inside it', () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="${remote('svg.png')}"/><image href="${remote('svg2.png')}"/><use xlink:href="#shape"/><image href="data:image/png;base64,AAAA"/><image href="pictures/local.png"/></svg>`;
    const docx = makeDocx(docxXml.paragraph(HOSTILE_DOCX_TEXT), {
      parts: { 'word/media/drawing.svg': { content: svg } },
    });
    const stripped = part(stripExternalReferences(docx).docx, 'word/media/drawing.svg');
    expect(stripped).toBe(
      svg
        .replace(` xlink:href="${remote('svg.png')}"`, '')
        .replace(` href="${remote('svg2.png')}"`, ''),
    );
  });

  it('keeps an embedded zip bomb to the upload budget and drops it', () => {
    const bomb = makeZipBombDocx(30 * 1024 * 1024);
    const docx = makeDocx(`${docxXml.paragraph(HOSTILE_DOCX_TEXT)}<w:altChunk r:id="rIdChunk"/>`, {
      relationships: {
        'word/document.xml': relationship('rIdChunk', 'aFChunk', 'bomb.docx', false),
      },
      parts: { 'word/bomb.docx': { content: bomb } },
    });
    const started = performance.now();
    const { docx: stripped } = stripExternalReferences(docx);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect([...partsOf(stripped).keys()]).not.toContain('word/bomb.docx!word/document.xml');
    expect(Object.keys(unzipSync(stripped))).not.toContain('word/bomb.docx');
  });
});
