import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFString,
  StandardFonts,
} from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_MAX_BYTES } from '../../shared/constants';
import { orientationMatrix } from '../pdf/pdf-images';
import { extractPdfPages, extractPdfText, extractPdfTextItems } from '../test/pdf-text';
import {
  docxXml,
  makeDocx,
  makeEncryptedPdf,
  makeFivePageDocx,
  makeJpeg,
  makeJpegOfSize,
  makePdf,
  makePng,
  makePngOfSize,
  makeSampleDocx,
  makeZipBombDocx,
  SAMPLE_DOCX_TEXT,
} from '../test/sample-files';
import { type ConvertOptions, convertToPdf } from './convert-to-pdf';
import { DocumentRejectedError, documentMessages } from './document-errors';
import { readJpegInfo } from './image-info';
import { placeImage } from './image-to-pdf';
import { inspectUpload } from './inspect-upload';
import { findSoffice } from './libreoffice';

const js: ConvertOptions = { docxEngine: 'js' };

async function rejection(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(DocumentRejectedError);
    return (error as Error).message;
  }
  throw new Error('expected a rejection');
}

/** The image XObjects drawn on the first page. */
async function pageImages(pdf: Uint8Array): Promise<{ doc: PDFDocument; images: PDFRawStream[] }> {
  const doc = await PDFDocument.load(pdf);
  const page = doc.getPage(0);
  const xObjects = page.node.Resources()?.lookupMaybe(PDFName.of('XObject'), PDFDict);
  const images: PDFRawStream[] = [];
  for (const [, ref] of xObjects?.entries() ?? []) {
    const stream = doc.context.lookup(ref);
    if (stream instanceof PDFRawStream) images.push(stream);
  }
  return { doc, images };
}

const num = (dict: PDFDict, key: string) => dict.lookup(PDFName.of(key), PDFNumber).asNumber();

describe('PNG and JPEG to PDF', () => {
  it('fits a 1 MB PNG on a US Letter page inside the margins', async () => {
    const png = makePngOfSize(FILE_MAX_BYTES);
    const pdf = await convertToPdf(png, 'png');
    const { doc, images } = await pageImages(pdf);
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getPage(0).getSize()).toEqual({ width: 612, height: 792 });
    expect(images).toHaveLength(1);
    const [image] = images;
    if (!image) throw new Error('no image');
    // Opaque PNG: the IDAT data goes in as it is, undone by FlateDecode with PNG predictors.
    expect(image.dict.lookup(PDFName.of('Filter'))).toBe(PDFName.of('FlateDecode'));
    const parms = image.dict.lookup(PDFName.of('DecodeParms'), PDFDict);
    expect(num(parms, 'Predictor')).toBe(15);
    expect(num(parms, 'Colors')).toBe(3);
    expect(num(image.dict, 'Width')).toBe(num(parms, 'Columns'));
    expect(pdf.byteLength).toBeLessThan(png.byteLength + 4096);
  });

  it.each([
    ['grey', { color: 'gray' }, 'DeviceGray'],
    ['palette', { color: 'palette' }, 'Indexed'],
  ] as const)('passes %s PNGs through with the right colour space', async (_, options, space) => {
    const pdf = await convertToPdf(makePng({ width: 64, height: 48, ...options }), 'png');
    const { images } = await pageImages(pdf);
    const colorSpace = images[0]?.dict.lookup(PDFName.of('ColorSpace'));
    const name = colorSpace instanceof PDFArray ? colorSpace.get(0) : colorSpace;
    expect(name).toBe(PDFName.of(space));
  });

  it.each([
    ['an alpha channel', { color: 'rgba' }],
    ['a transparent palette entry', { color: 'palette', paletteAlpha: true }],
  ] as const)('keeps the transparency of a PNG with %s (soft mask)', async (_, options) => {
    const pdf = await convertToPdf(makePng({ width: 64, height: 48, ...options }), 'png');
    const { images } = await pageImages(pdf);
    expect(images[0]?.dict.get(PDFName.of('SMask'))).toBeDefined();
  });

  it('embeds a 1 MB JPEG unchanged (no re-encoding)', async () => {
    const jpeg = makeJpegOfSize(FILE_MAX_BYTES);
    const pdf = await convertToPdf(jpeg, 'jpeg');
    const { images } = await pageImages(pdf);
    const [image] = images;
    if (!image) throw new Error('no image');
    expect(image.dict.lookup(PDFName.of('Filter'))).toBe(PDFName.of('DCTDecode'));
    expect(Buffer.from(image.contents).equals(Buffer.from(jpeg))).toBe(true);
  });

  it('puts a landscape image on a landscape page', async () => {
    const pdf = await convertToPdf(makeJpeg({ width: 300, height: 150 }), 'jpeg');
    const doc = await PDFDocument.load(pdf);
    expect(doc.getPage(0).getSize()).toEqual({ width: 792, height: 612 });
  });

  it('turns a photo as its EXIF orientation says (6: stored sideways, shown upright)', async () => {
    const jpeg = makeJpeg({ width: 300, height: 150, orientation: 6 });
    expect(readJpegInfo(jpeg).orientation).toBe(6);
    const pdf = await convertToPdf(jpeg, 'jpeg');
    const doc = await PDFDocument.load(pdf);
    // Stored 300 x 150, shown 150 x 300: a portrait page.
    expect(doc.getPage(0).getSize()).toEqual({ width: 612, height: 792 });
  });

  it('maps the unit square onto the box for all eight orientations', () => {
    const box = { x: 10, y: 20, width: 100, height: 50 };
    const corners = (m: number[]) =>
      [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ]
        .map(([u = 0, v = 0]) => [
          (m[0] ?? 0) * u + (m[2] ?? 0) * v + (m[4] ?? 0),
          (m[1] ?? 0) * u + (m[3] ?? 0) * v + (m[5] ?? 0),
        ])
        .map(([x, y]) => `${x},${y}`)
        .sort();
    for (let orientation = 1; orientation <= 8; orientation++) {
      expect(corners(orientationMatrix(orientation, box))).toEqual(
        ['10,20', '110,20', '10,70', '110,70'].sort(),
      );
    }
    // Orientation 6: the stored top-left pixel (u 0, v 1) ends at the top-right of the box.
    const m = orientationMatrix(6, box);
    expect([m[2] + m[4], m[3] + m[5]]).toEqual([110, 70]);
  });

  it('keeps the aspect ratio and centres the image inside half-inch margins', () => {
    const placed = placeImage(1000, 500);
    expect(placed.width / placed.height).toBeCloseTo(2);
    expect(placed.width).toBeCloseTo(792 - 72);
    expect(placed.x).toBeCloseTo(36);
    expect(placed.y).toBeCloseTo((612 - placed.height) / 2);
    const tall = placeImage(100, 1000);
    expect(tall.height).toBeCloseTo(792 - 72);
  });

  it('accepts a progressive JPEG frame (SOF2): the DCT data is carried, not decoded', async () => {
    const jpeg = makeJpeg({ width: 32, height: 16 });
    const sof = Buffer.from(jpeg).indexOf(Buffer.from([0xff, 0xc0]));
    const progressive = jpeg.slice();
    progressive[sof + 1] = 0xc2;
    expect(readJpegInfo(progressive).progressive).toBe(true);
    expect(await inspectUpload(progressive, 'p.jpg')).toEqual({ ok: true, kind: 'jpeg' });
    const pdf = await convertToPdf(progressive, 'jpeg');
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(1);
  });

  it('rejects a PNG whose image data is damaged even though its CRCs are right', async () => {
    const png = Buffer.from(makePng({ width: 64, height: 64 }));
    const idat = png.indexOf('IDAT');
    const length = png.readUInt32BE(idat - 4);
    png.fill(0x55, idat + 10, idat + 4 + length - 4);
    png.writeUInt32BE(crc32(png.subarray(idat, idat + 4 + length)) >>> 0, idat + 4 + length);
    expect(await rejection(convertToPdf(new Uint8Array(png), 'png'))).toBe(
      documentMessages.imageDamaged,
    );
  });
});

describe('PDF normalisation', () => {
  it('keeps every page and its text', async () => {
    const source = await makePdf([['Page one text'], ['Page two text'], ['Page three text']]);
    const pdf = await convertToPdf(source, 'pdf');
    const pages = await extractPdfPages(pdf);
    expect(pages).toHaveLength(3);
    expect(pages.map((text) => text.trim())).toEqual([
      'Page one text',
      'Page two text',
      'Page three text',
    ]);
  });

  it('drops document JavaScript and active actions, keeps ordinary links', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage();
    page.drawText('Transcript', { x: 72, y: 700, font, size: 12 });
    const js = doc.context.obj({ S: 'JavaScript', JS: PDFString.of('app.alert(1)') });
    doc.catalog.set(PDFName.of('OpenAction'), js);
    page.node.set(PDFName.of('AA'), doc.context.obj({ O: js }));
    const link = (action: PDFDict) =>
      doc.context.register(
        doc.context.obj({ Type: 'Annot', Subtype: 'Link', Rect: [72, 600, 200, 620], A: action }),
      );
    const uri = doc.context.obj({ S: 'URI', URI: PDFString.of('https://example.edu') });
    page.node.set(PDFName.of('Annots'), doc.context.obj([link(js), link(uri)]));
    const pdf = await convertToPdf(await doc.save(), 'pdf');

    const out = await PDFDocument.load(pdf);
    expect(out.catalog.get(PDFName.of('OpenAction'))).toBeUndefined();
    const outPage = out.getPage(0);
    expect(outPage.node.get(PDFName.of('AA'))).toBeUndefined();
    const annotations = outPage.node.Annots();
    const actions = [0, 1].map((i) =>
      annotations?.lookup(i, PDFDict).lookupMaybe(PDFName.of('A'), PDFDict),
    );
    expect(actions[0]).toBeUndefined();
    expect(actions[1]?.lookup(PDFName.of('S'))).toBe(PDFName.of('URI'));
    expect(await extractPdfText(pdf)).toContain('Transcript');
  });

  it('refuses an encrypted PDF, also when part of it fails strict parsing', async () => {
    const encrypted = await makeEncryptedPdf();
    expect(await rejection(convertToPdf(encrypted, 'pdf'))).toBe(documentMessages.pdfEncrypted);
    // A broken object before the update: strict parsing fails first, yet the answer is "password".
    const text = Buffer.from(encrypted).toString('latin1');
    const broken = text.replace('endobj', 'endobj\n99 0 obj\n<< /Broken [ 1 2 >>\nendobj');
    expect(await rejection(convertToPdf(Buffer.from(broken, 'latin1'), 'pdf'))).toBe(
      documentMessages.pdfEncrypted,
    );
  });
});

describe('DOCX to PDF in JavaScript', () => {
  let samplePdf: Uint8Array;
  const notices: string[] = [];
  beforeAll(async () => {
    samplePdf = await convertToPdf(makeSampleDocx(), 'docx', {
      ...js,
      onNotice: (notice) => notices.push(notice),
    });
  });

  it('keeps every heading, paragraph, list item and table cell', async () => {
    const text = await extractPdfText(samplePdf);
    const t = SAMPLE_DOCX_TEXT;
    for (const expected of [
      t.title,
      t.subheading,
      t.paragraph,
      `Honours: ${t.bold}`,
      ...t.bullets,
      ...t.numbered,
      ...t.table.flat(),
      'Name: Alex Doe',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('draws headings bigger and bold, and marks list items', async () => {
    const items = await extractPdfTextItems(samplePdf);
    const find = (text: string) => {
      const item = items.find((candidate) => candidate.text.includes(text));
      if (!item) throw new Error(`${text} not found`);
      return item;
    };
    const body = find(SAMPLE_DOCX_TEXT.paragraph);
    const title = find(SAMPLE_DOCX_TEXT.title);
    const subheading = find(SAMPLE_DOCX_TEXT.subheading);
    expect(title.fontSize).toBeGreaterThan(subheading.fontSize);
    expect(subheading.fontSize).toBeGreaterThan(body.fontSize);
    // Bold: the headings share the font of the bold run, which is not the body's font.
    const boldRun = find(SAMPLE_DOCX_TEXT.bold);
    expect(title.fontName).toBe(boldRun.fontName);
    expect(subheading.fontName).toBe(boldRun.fontName);
    expect(body.fontName).not.toBe(boldRun.fontName);
    // Markers precede their items (PDF.js reads marker and text as one run); nesting indents.
    const t = SAMPLE_DOCX_TEXT;
    const bullet = find(`• ${t.bullets[0]}`);
    const nestedBullet = find(`– ${t.bullets[2]}`);
    expect(bullet.x).toBeGreaterThan(body.x);
    expect(nestedBullet.x).toBeGreaterThan(bullet.x);
    const first = find(`1. ${t.numbered[0]}`);
    find(`2. ${t.numbered[1]}`);
    const nested = find(`a. ${t.numbered[2]}`);
    expect(nested.x).toBeGreaterThan(first.x);
  });

  it('keeps text outside WinAnsi with Noto fonts, and says what had to become "?"', async () => {
    const text = await extractPdfText(samplePdf);
    expect(text).toContain('Zoë Łukasz Ελληνικά Кириллица 中文姓名 ✓');
    // No font here draws the emoji: it becomes a visible '?', and the caller is told.
    expect(text).toContain('✓ ?');
    expect(notices).toEqual([`1 character(s) had no font and were drawn as '?'.`]);
  });

  it('honours page breaks: five sections, five pages, each on its own', async () => {
    const pdf = await convertToPdf(makeFivePageDocx(), 'docx', js);
    const pages = await extractPdfPages(pdf);
    expect(pages).toHaveLength(5);
    pages.forEach((text, i) => {
      expect(text).toContain(`Section ${i + 1}`);
      expect(text).toContain(`Point ${i + 1}.3`);
      expect(text).toContain(`Fall ${2021 + i}`);
    });
  });

  it('paginates long text and loses no word', async () => {
    const words = Array.from({ length: 3000 }, (_, i) => `word${i}`);
    const body = [];
    for (let i = 0; i < words.length; i += 100) {
      body.push(docxXml.paragraph(words.slice(i, i + 100).join(' ')));
    }
    const pdf = await convertToPdf(makeDocx(body.join('')), 'docx', js);
    const pages = await extractPdfPages(pdf);
    expect(pages.length).toBeGreaterThan(3);
    const found = pages.join(' ').split(/\s+/).filter(Boolean);
    expect(found).toEqual(words);
  });

  it('breaks a word longer than a line, and CJK text without spaces, keeping every character', async () => {
    const long = 'x'.repeat(400);
    const chinese = '申请转学的学生需要提交成绩单和个人陈述'.repeat(12);
    const pdf = await convertToPdf(
      makeDocx(docxXml.paragraph(long) + docxXml.paragraph(chinese)),
      'docx',
      js,
    );
    const compact = (await extractPdfText(pdf)).replace(/\s+/g, '');
    expect(compact).toContain(long);
    expect(compact).toContain(chinese);
    const items = await extractPdfTextItems(pdf);
    expect(items.filter((item) => item.text.startsWith('xxx')).length).toBeGreaterThan(1);
  });

  it('splits a table row taller than a page across pages without losing text', async () => {
    const tall = Array.from({ length: 600 }, (_, i) => `line${i}`).join(' long cell text ');
    const pdf = await convertToPdf(
      makeDocx(
        docxXml.table([
          ['Header A', 'Header B'],
          [tall, 'short'],
        ]),
      ),
      'docx',
      js,
    );
    const pages = await extractPdfPages(pdf);
    expect(pages.length).toBeGreaterThan(1);
    const text = pages.join(' ').replace(/\s+/g, ' ');
    const words = new Set(text.split(' '));
    for (let i = 0; i < 600; i++) expect(words.has(`line${i}`)).toBe(true);
    expect(text).toContain('Header A Header B');
    expect(text).toContain('short');
  });

  it('lays out merged cells (colspan and rowspan) and nested tables as text', async () => {
    const cell = (text: string, props = '') =>
      `<w:tc><w:tcPr>${props}</w:tcPr>${docxXml.paragraph(text)}</w:tc>`;
    const nested = docxXml.table([
      ['inner a', 'inner b'],
      ['inner c', 'inner d'],
    ]);
    const table =
      '<w:tbl><w:tblPr/>' +
      `<w:tr>${cell('Spanning header', '<w:gridSpan w:val="2"/>')}${cell('Third')}</w:tr>` +
      `<w:tr>${cell('Merged down', '<w:vMerge w:val="restart"/>')}${cell('B2')}${cell('C2')}</w:tr>` +
      `<w:tr>${cell('', '<w:vMerge/>')}${cell('B3')}<w:tc>${nested}${docxXml.paragraph('after nested')}</w:tc></w:tr>` +
      '</w:tbl>';
    const pdf = await convertToPdf(makeDocx(table), 'docx', js);
    const text = await extractPdfText(pdf);
    for (const expected of [
      'Spanning header',
      'Third',
      'Merged down',
      'B2',
      'C2',
      'B3',
      'inner a | inner b',
      'inner c | inner d',
      'after nested',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('places pictures from the document, with their description', async () => {
    const picture = makePng({ width: 120, height: 80 });
    const docx = makeDocx(
      docxXml.paragraph('Before the picture') +
        docxXml.picture('rIdImg0', 'Campus photo', 120, 80) +
        docxXml.paragraph('After the picture'),
      { media: [{ name: 'photo.png', bytes: picture }] },
    );
    const pdf = await convertToPdf(docx, 'docx', js);
    const { images } = await pageImages(pdf);
    expect(images).toHaveLength(1);
    const [image] = images;
    if (!image) throw new Error('no image');
    expect(num(image.dict, 'Width')).toBe(120);
    const text = await extractPdfText(pdf);
    expect(text).toMatch(/Before the picture.*Campus photo.*After the picture/);
  });

  it('writes a note for a picture it cannot draw', async () => {
    const docx = makeDocx(docxXml.picture('rIdImg0', 'Scanned form', 10, 10), {
      media: [{ name: 'scan.gif', bytes: new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61]) }],
    });
    const text = await extractPdfText(await convertToPdf(docx, 'docx', js));
    expect(text).toContain('[Image: Scanned form]');
  });

  it('repeats the header and footer on every page, with each page number', async () => {
    const run = (inner: string) => `<w:r>${inner}</w:r>`;
    const footerXml =
      `<w:p><w:pPr><w:tabs><w:tab w:val="center" w:pos="4680"/></w:tabs></w:pPr>${run('<w:t xml:space="preserve">Page </w:t>')}` +
      run('<w:fldChar w:fldCharType="begin"/>') +
      run('<w:instrText xml:space="preserve"> PAGE </w:instrText>') +
      run('<w:fldChar w:fldCharType="separate"/>') +
      run('<w:t>1</w:t>') +
      run('<w:fldChar w:fldCharType="end"/>') +
      run('<w:t xml:space="preserve"> of </w:t>') +
      '<w:fldSimple w:instr=" NUMPAGES "><w:r><w:t>9</w:t></w:r></w:fldSimple></w:p>';
    const docx = makeDocx(
      [1, 2, 3].map((n) => docxXml.paragraph(`Body ${n}`) + docxXml.pageBreak()).join('') +
        docxXml.paragraph('Last page'),
      {
        headerXml: '<w:p><w:r><w:t>Alex Doe · Applicant 12345 &amp; co</w:t></w:r></w:p>',
        footerXml,
      },
    );
    const pages = await extractPdfPages(await convertToPdf(docx, 'docx', js));
    expect(pages).toHaveLength(4);
    pages.forEach((text, i) => {
      const flat = text.replace(/\s+/g, ' ');
      expect(flat).toContain('Alex Doe · Applicant 12345 & co');
      expect(flat).toContain(`Page ${i + 1} of 4`);
    });
  });

  it('turns an empty document into one blank page', async () => {
    const pdf = await convertToPdf(makeDocx('<w:p/>'), 'docx', js);
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(1);
  });

  it('refuses a document whose XML is broken', async () => {
    const broken = makeDocx('<w:p><w:r><w:t>unclosed');
    expect(await rejection(convertToPdf(broken, 'docx', js))).toBe(documentMessages.docxDamaged);
  });

  it('refuses a zip bomb before any unzipping library sees it', async () => {
    expect(await rejection(convertToPdf(makeZipBombDocx(), 'docx', js))).toBe(
      documentMessages.docxTooBig,
    );
  });
});

describe('DOCX to PDF through LibreOffice', () => {
  let dir: string;
  let goodPdf: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'fake-soffice-'));
    goodPdf = path.join(dir, 'good.pdf');
    writeFileSync(goodPdf, await makePdf([['Converted by the office suite']]));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A stand-in `soffice` that records its work folder, then runs `body` (sh). */
  function fakeSoffice(name: string, body: string): string {
    const file = path.join(dir, name);
    writeFileSync(
      file,
      `#!/bin/sh\nout=""; prev=""\nfor a in "$@"; do [ "$prev" = "--outdir" ] && out="$a"; prev="$a"; done\necho "$out" > "${file}.workdir"\n${body}\n`,
    );
    chmodSync(file, 0o755);
    return file;
  }

  it('uses the PDF soffice writes, and removes its temporary folder', async () => {
    const soffice = fakeSoffice('ok', `cp "${goodPdf}" "$out/document.pdf"`);
    const pdf = await convertToPdf(makeSampleDocx(), 'docx', { sofficePath: soffice });
    expect(await extractPdfText(pdf)).toBe('Converted by the office suite');
    const workdir = readFileSync(`${soffice}.workdir`, 'utf8').trim();
    expect(workdir).toContain('portal-docx-');
    expect(existsSync(workdir)).toBe(false);
  });

  it('falls back to the JavaScript path when soffice fails, and says so', async () => {
    const soffice = fakeSoffice('fails', 'echo "crash" >&2; exit 1');
    const notices: string[] = [];
    const pdf = await convertToPdf(makeSampleDocx(), 'docx', {
      sofficePath: soffice,
      onNotice: (notice) => notices.push(notice),
    });
    expect(await extractPdfText(pdf)).toContain(SAMPLE_DOCX_TEXT.title);
    expect(notices[0]).toMatch(/LibreOffice conversion failed.*crash/);
  });

  it('falls back when soffice writes something that is not a PDF', async () => {
    const soffice = fakeSoffice('garbage', 'echo "not a pdf" > "$out/document.pdf"');
    const pdf = await convertToPdf(makeSampleDocx(), 'docx', { sofficePath: soffice });
    expect(await extractPdfText(pdf)).toContain(SAMPLE_DOCX_TEXT.title);
  });

  it('kills soffice at the time limit and falls back; without fallback it says "too long"', async () => {
    const soffice = fakeSoffice('hangs', 'sleep 30');
    const notices: string[] = [];
    const pdf = await convertToPdf(makeSampleDocx(), 'docx', {
      sofficePath: soffice,
      libreOfficeTimeoutMs: 300,
      onNotice: (notice) => notices.push(notice),
    });
    expect(await extractPdfText(pdf)).toContain(SAMPLE_DOCX_TEXT.title);
    expect(notices[0]).toMatch(/timed out/);
    expect(
      await rejection(
        convertToPdf(makeSampleDocx(), 'docx', {
          sofficePath: soffice,
          libreOfficeTimeoutMs: 300,
          docxEngine: 'libreoffice',
        }),
      ),
    ).toBe(documentMessages.conversionTimedOut);
    const workdir = readFileSync(`${soffice}.workdir`, 'utf8').trim();
    expect(existsSync(workdir)).toBe(false);
  });

  it('refuses the LibreOffice-only engine when soffice is not installed', async () => {
    expect(
      await rejection(
        convertToPdf(makeSampleDocx(), 'docx', { sofficePath: null, docxEngine: 'libreoffice' }),
      ),
    ).toBe(documentMessages.conversionFailed);
  });

  it.skipIf(!findSoffice())(
    'converts with the real soffice when it is installed',
    async () => {
      const pdf = await convertToPdf(makeSampleDocx(), 'docx', { docxEngine: 'libreoffice' });
      const text = await extractPdfText(pdf);
      for (const expected of [SAMPLE_DOCX_TEXT.title, ...SAMPLE_DOCX_TEXT.bullets]) {
        expect(text).toContain(expected);
      }
    },
    120_000,
  );
});
