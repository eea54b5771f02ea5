import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_DOCX, HOSTILE_DOCX_TEXT, makeDocxWithHyperlink } from '../test/hostile-docx';
import { extractPdfText } from '../test/pdf-text';
import { makePng } from '../test/sample-files';
import { convertToPdf } from './convert-to-pdf';
import { convertWithLibreOffice, findSoffice } from './libreoffice';

const engines = findSoffice() ? (['js', 'libreoffice'] as const) : (['js'] as const);

describe('DOCX conversion never reaches the network', () => {
  let server: Server;
  let base: string;
  const requests: string[] = [];
  const url = (name: string) => `${base}/${name}`;
  const picture = makePng({ width: 16, height: 16 });

  beforeAll(async () => {
    server = createServer((request, response) => {
      requests.push(request.url ?? '');
      // A real picture, so a converter that fetched would have something to embed.
      response.writeHead(200, { 'content-type': 'image/png' });
      response.end(picture);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  describe.each(engines)('through the %s converter', (engine) => {
    it.each(Object.keys(HOSTILE_DOCX))(
      '%s: converts the document and fetches nothing',
      async (name) => {
        const make = HOSTILE_DOCX[name];
        if (!make) throw new Error(`no case ${name}`);
        const before = requests.length;
        const pdf = await convertToPdf(make(url), 'docx', { docxEngine: engine });
        expect(requests.slice(before)).toEqual([]);
        expect(await extractPdfText(pdf)).toContain(HOSTILE_DOCX_TEXT);
      },
      60_000,
    );

    it('converts a document with an external hyperlink, fetching nothing', async () => {
      const before = requests.length;
      const target = url('transcript-online');
      const pdf = await convertToPdf(makeDocxWithHyperlink(target), 'docx', {
        docxEngine: engine,
      });
      expect(requests.slice(before)).toEqual([]);
      expect(await extractPdfText(pdf)).toContain('Transcript online');
    }, 60_000);
  });

  it.skipIf(!findSoffice())(
    'LibreOffice alone, handed a linked picture that was not stripped, fetches nothing',
    async () => {
      const soffice = findSoffice();
      if (!soffice) return;
      const linked = HOSTILE_DOCX['linked picture (a:blip r:link)'];
      if (!linked) throw new Error('no linked picture case');
      const before = requests.length;
      const pdf = await convertWithLibreOffice(linked(url), soffice);
      expect(requests.slice(before)).toEqual([]);
      expect(await extractPdfText(pdf)).toContain(HOSTILE_DOCX_TEXT);
    },
    60_000,
  );
});
