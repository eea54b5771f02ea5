import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { costOf, fuzzParameters, MB, mutatedFrom } from '../test/fuzz-support';
import { complexField, simpleField, UNCLOSED_MARKUP } from '../test/hostile-docx';
import { docxXml, WORD_NS } from '../test/sample-files';
import { paragraphsOf, readHeadersAndFooters } from './docx-headers';

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

const header = (inner: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:hdr ${WORD_NS}>${inner}</w:hdr>`;

const DOCUMENT = encode(
  `<w:document ${WORD_NS}><w:body><w:p/><w:sectPr><w:headerReference w:type="default" r:id="rIdHeader"/><w:footerReference w:type="default" r:id="rIdFooter"/></w:sectPr></w:body></w:document>`,
);
const RELATIONSHIPS = encode(
  '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    '<Relationship Id="rIdHeader" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/header" Target="header1.xml"/>' +
    '<Relationship Id="rIdFooter" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footer" Target="footer1.xml"/>' +
    '</Relationships>',
);

const seeds = [
  header(docxXml.paragraph('Alex Doe, ID 12345\tPage')),
  header(`${complexField('PAGE', '3')}${simpleField('NUMPAGES', '9')}`),
  header(
    '<w:p><w:pPr><w:tabs><w:tab w:val="center" w:pos="4680"/></w:tabs></w:pPr><w:r><w:t>a</w:t></w:r><w:r><w:tab/></w:r><w:r><w:br/></w:r></w:p>',
  ),
  ...Object.values(UNCLOSED_MARKUP).map(header),
].map(encode);

describe('Word header and footer reading, fed damaged and hostile parts', () => {
  it('returns text or nothing, never throws, in time proportional to the part', async () => {
    await fc.assert(
      fc.asyncProperty(mutatedFrom(seeds), async (bytes) => {
        const cost = await costOf(() => {
          paragraphsOf(decode(bytes));
          const parts = new Map([
            ['word/document.xml', DOCUMENT],
            ['word/_rels/document.xml.rels', RELATIONSHIPS],
            ['word/header1.xml', bytes],
            ['word/footer1.xml', bytes],
          ]);
          const { header, footer } = readHeadersAndFooters(parts);
          expect(header).toEqual(footer);
        });
        expect(cost.ms).toBeLessThan(1_000);
        expect(cost.bytes).toBeLessThan(64 * MB);
      }),
      fuzzParameters(seeds),
    );
  });
});
