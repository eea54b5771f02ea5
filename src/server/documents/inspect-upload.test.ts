import { crc32 } from 'node:zlib';
import { zipSync } from 'fflate';
import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { FILE_MAX_BYTES } from '../../shared/constants';
import {
  FILE_EMPTY_MESSAGE,
  FILE_NAME_TOO_LONG_MESSAGE,
  FILE_TOO_LARGE_MESSAGE,
  FILE_TYPE_MESSAGE,
} from '../../shared/documents/file-rules';
import {
  makeDocx,
  makeEncryptedPdf,
  makeExe,
  makeJpeg,
  makeJpegOfSize,
  makeManyEntriesDocx,
  makePdf,
  makePng,
  makePngOfSize,
  makeSampleDocx,
  makeZipBombDocx,
} from '../test/sample-files';
import { documentMessages } from './document-errors';
import { DOCX_LIMITS, inspectUpload, sniffKind } from './inspect-upload';

const utf8 = (text: string) => new TextEncoder().encode(text);

let png: Uint8Array;
let jpeg: Uint8Array;
let pdf: Uint8Array;
let docx: Uint8Array;

beforeAll(async () => {
  png = makePng({ width: 40, height: 30 });
  jpeg = makeJpeg({ width: 40, height: 30 });
  pdf = await makePdf();
  docx = makeSampleDocx();
});

describe('inspectUpload accepts real files', () => {
  it.each([
    ['photo.png', () => png, 'png'],
    ['photo.PNG', () => png, 'png'],
    ['scan.jpg', () => jpeg, 'jpeg'],
    ['scan.jpeg', () => jpeg, 'jpeg'],
    ['transcript.pdf', () => pdf, 'pdf'],
    ['essay.docx', () => docx, 'docx'],
  ] as const)('%s', async (name, bytes, kind) => {
    expect(await inspectUpload(bytes(), name)).toEqual({ ok: true, kind });
  });

  it('accepts files of about 1 MB (noisy PNG and JPEG just under the limit)', async () => {
    const bigPng = makePngOfSize(FILE_MAX_BYTES);
    const bigJpeg = makeJpegOfSize(FILE_MAX_BYTES);
    expect(bigPng.byteLength).toBeGreaterThan(FILE_MAX_BYTES * 0.95);
    expect(bigJpeg.byteLength).toBeGreaterThan(FILE_MAX_BYTES * 0.85);
    expect(await inspectUpload(bigPng, 'big.png')).toEqual({ ok: true, kind: 'png' });
    expect(await inspectUpload(bigJpeg, 'big.jpg')).toEqual({ ok: true, kind: 'jpeg' });
  });
});

describe('inspectUpload applies the spec rules first, with the exact messages', () => {
  it('rejects an empty file', async () => {
    expect(await inspectUpload(new Uint8Array(0), 'empty.pdf')).toEqual({
      ok: false,
      message: FILE_EMPTY_MESSAGE,
    });
  });

  it('rejects a file of 1 MB + 1 byte', async () => {
    const tooBig = new Uint8Array(FILE_MAX_BYTES + 1);
    tooBig.set(pdf);
    expect(await inspectUpload(tooBig, 'big.pdf')).toEqual({
      ok: false,
      message: FILE_TOO_LARGE_MESSAGE,
    });
  });

  it('rejects a disallowed extension even when the content is fine', async () => {
    expect(await inspectUpload(pdf, 'transcript.txt')).toEqual({
      ok: false,
      message: FILE_TYPE_MESSAGE,
    });
    expect(await inspectUpload(makeExe(), 'setup.exe')).toEqual({
      ok: false,
      message: FILE_TYPE_MESSAGE,
    });
  });

  it('rejects a name over 32 characters', async () => {
    expect(await inspectUpload(pdf, `${'t'.repeat(29)}.pdf`)).toEqual({
      ok: false,
      message: FILE_NAME_TOO_LONG_MESSAGE,
    });
  });
});

describe('inspectUpload checks that the content agrees with the extension', () => {
  it('rejects a renamed EXE', async () => {
    for (const name of ['transcript.pdf', 'photo.png', 'photo.jpg', 'essay.docx']) {
      const result = await inspectUpload(makeExe(), name);
      expect(result.ok).toBe(false);
      expect(result).toMatchObject({ message: expect.stringContaining('is not a real') });
    }
    expect(await inspectUpload(makeExe(), 'transcript.pdf')).toEqual({
      ok: false,
      message: documentMessages.notWhatTheNameSays('pdf'),
    });
  });

  it('rejects plain text saved as .pdf', async () => {
    expect(await inspectUpload(utf8('Dear admissions office'), 'letter.pdf')).toEqual({
      ok: false,
      message: documentMessages.notWhatTheNameSays('pdf'),
    });
  });

  it('tells the applicant how to rename an allowed file with the wrong extension', async () => {
    expect(await inspectUpload(png, 'photo.jpg')).toEqual({
      ok: false,
      message: documentMessages.wrongExtension('png', 'jpeg'),
    });
    expect(documentMessages.wrongExtension('png', 'jpeg')).toContain('rename it to end in .png');
    expect(await inspectUpload(jpeg, 'photo.png')).toEqual({
      ok: false,
      message: documentMessages.wrongExtension('jpeg', 'png'),
    });
    expect(await inspectUpload(pdf, 'essay.docx')).toEqual({
      ok: false,
      message: documentMessages.wrongExtension('pdf', 'docx'),
    });
  });

  it('does not call any ZIP a Word document when it is named .pdf', async () => {
    expect(await inspectUpload(docx, 'essay.pdf')).toEqual({
      ok: false,
      message: documentMessages.notWhatTheNameSays('pdf'),
    });
  });

  it('sniffs the signatures', () => {
    expect(sniffKind(png)).toBe('png');
    expect(sniffKind(jpeg)).toBe('jpeg');
    expect(sniffKind(pdf)).toBe('pdf');
    expect(sniffKind(docx)).toBe('docx');
    expect(sniffKind(makeExe())).toBeNull();
    expect(sniffKind(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))).toBe('ole');
  });
});

describe('inspectUpload refuses damaged or locked PDFs', () => {
  it('rejects an encrypted PDF', async () => {
    expect(await inspectUpload(await makeEncryptedPdf(), 'locked.pdf')).toEqual({
      ok: false,
      message: documentMessages.pdfEncrypted,
    });
    expect(documentMessages.pdfEncrypted).toContain('password-protected');
  });

  it('rejects a PDF header followed by garbage', async () => {
    const garbage = new Uint8Array(3000).map((_, i) => (i * 7919) % 256);
    garbage.set(utf8('%PDF-1.7\n'));
    expect(await inspectUpload(garbage, 'broken.pdf')).toEqual({
      ok: false,
      message: documentMessages.pdfDamaged,
    });
  });

  it('rejects a PDF cut short, as a failed download leaves it', async () => {
    const cut = pdf.subarray(0, Math.floor(pdf.byteLength / 2));
    expect(await inspectUpload(cut, 'cut.pdf')).toEqual({
      ok: false,
      message: documentMessages.pdfDamaged,
    });
  });

  it('rejects a PDF without pages', async () => {
    const empty = await (await PDFDocument.create()).save({ addDefaultPage: false });
    expect(await inspectUpload(empty, 'blank.pdf')).toEqual({
      ok: false,
      message: documentMessages.pdfNoPages,
    });
  });
});

describe('inspectUpload refuses damaged images', () => {
  it('rejects a PNG whose chunk CRC is wrong', async () => {
    const bad = png.slice();
    bad[20] = (bad[20] ?? 0) ^ 0xff; // inside IHDR
    expect(await inspectUpload(bad, 'bad.png')).toEqual({
      ok: false,
      message: documentMessages.imageDamaged,
    });
  });

  it('rejects a PNG cut short', async () => {
    expect(await inspectUpload(png.subarray(0, png.byteLength - 20), 'cut.png')).toEqual({
      ok: false,
      message: documentMessages.imageDamaged,
    });
  });

  it('rejects a JPEG cut off before its image data', async () => {
    expect(await inspectUpload(jpeg.subarray(0, 40), 'cut.jpg')).toEqual({
      ok: false,
      message: documentMessages.imageDamaged,
    });
  });

  it('rejects a tiny PNG that claims too many pixels (a decompression bomb)', async () => {
    const huge = makePng({ width: 1, height: 1 });
    // Rewrite IHDR to 20000 x 20000 and fix its CRC so only the size is wrong.
    const view = new DataView(huge.buffer);
    view.setUint32(16, 20_000);
    view.setUint32(20, 20_000);
    view.setUint32(29, crc32(huge.subarray(12, 29)) >>> 0);
    expect(await inspectUpload(huge, 'huge.png')).toEqual({
      ok: false,
      message: documentMessages.imageTooManyPixels,
    });
  });
});

describe('inspectUpload checks DOCX as a real OOXML package', () => {
  it('rejects a zip bomb (50 MB of zeros in one part) without inflating it', async () => {
    const bomb = makeZipBombDocx();
    expect(bomb.byteLength).toBeLessThan(FILE_MAX_BYTES);
    expect(await inspectUpload(bomb, 'bomb.docx')).toEqual({
      ok: false,
      message: documentMessages.docxTooBig,
    });
  });

  it('rejects a zip bomb that lies about its sizes, stopping at the declared size', async () => {
    const bomb = makeZipBombDocx(30 * 1024 * 1024);
    // Patch the bomb entry's declared uncompressed size (central directory and local header) to
    // 1 KB: only a reader that checks the real output catches it.
    const view = new DataView(bomb.buffer);
    const text = Buffer.from(bomb).toString('latin1');
    for (const signature of ['PK\x01\x02', 'PK\x03\x04']) {
      let at = text.indexOf(signature);
      while (at >= 0) {
        const central = signature === 'PK\x01\x02';
        const nameAt = at + (central ? 46 : 30);
        const nameLength = view.getUint16(at + (central ? 28 : 26), true);
        const name = text.slice(nameAt, nameAt + nameLength);
        if (name === 'word/media/bomb.bin') view.setUint32(at + (central ? 24 : 22), 1024, true);
        at = text.indexOf(signature, at + 4);
      }
    }
    expect(await inspectUpload(bomb, 'liar.docx')).toEqual({
      ok: false,
      message: documentMessages.docxTooBig,
    });
  });

  it(`rejects a package of 5000 entries (limit ${DOCX_LIMITS.maxEntries})`, async () => {
    const many = makeManyEntriesDocx(5000);
    expect(many.byteLength).toBeLessThan(FILE_MAX_BYTES);
    expect(await inspectUpload(many, 'many.docx')).toEqual({
      ok: false,
      message: documentMessages.docxTooBig,
    });
  });

  it('rejects a ZIP that is not an Office package', async () => {
    const zip = zipSync({ 'notes.txt': utf8('hello') });
    expect(await inspectUpload(zip, 'notes.docx')).toEqual({
      ok: false,
      message: documentMessages.docxNotWord,
    });
  });

  it('rejects a spreadsheet renamed to .docx', async () => {
    const xlsx = zipSync({
      '[Content_Types].xml': utf8(
        '<Types><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>',
      ),
      xl: { 'workbook.xml': utf8('<workbook/>') },
    });
    expect(await inspectUpload(xlsx, 'grades.docx')).toEqual({
      ok: false,
      message: documentMessages.docxNotWord,
    });
  });

  it('rejects a package without word/document.xml', async () => {
    const noBody = zipSync({
      '[Content_Types].xml': utf8(
        '<Types><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ),
    });
    expect(await inspectUpload(noBody, 'empty.docx')).toEqual({
      ok: false,
      message: documentMessages.docxDamaged,
    });
  });

  it('rejects a DOCX with a damaged part (CRC mismatch)', async () => {
    const bad = makeDocx('<w:p><w:r><w:t>hello</w:t></w:r></w:p>');
    const text = Buffer.from(bad).toString('latin1');
    const central = text.indexOf('PK\x01\x02');
    new DataView(bad.buffer).setUint32(central + 16, 0x12345678, true);
    expect(await inspectUpload(bad, 'crc.docx')).toEqual({
      ok: false,
      message: documentMessages.docxDamaged,
    });
  });

  it('rejects a DOCX cut short', async () => {
    expect(await inspectUpload(docx.subarray(0, docx.byteLength - 30), 'cut.docx')).toEqual({
      ok: false,
      message: documentMessages.docxDamaged,
    });
  });

  it('explains a password-protected Word file (an OLE container named .docx)', async () => {
    const ole = new Uint8Array(2048);
    ole.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    expect(await inspectUpload(ole, 'locked.docx')).toEqual({
      ok: false,
      message: documentMessages.docxProtected,
    });
  });

  it('rejects ZIP-level encryption', async () => {
    const bad = makeDocx('<w:p/>');
    const text = Buffer.from(bad).toString('latin1');
    const view = new DataView(bad.buffer);
    const central = text.indexOf('PK\x01\x02');
    view.setUint16(central + 8, view.getUint16(central + 8, true) | 1, true);
    expect(await inspectUpload(bad, 'zipcrypto.docx')).toEqual({
      ok: false,
      message: documentMessages.docxProtected,
    });
  });

  it('accepts a stored (uncompressed) package and one built by another zipper', async () => {
    const stored = zipSync(
      {
        '[Content_Types].xml': utf8(
          '<Types><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
        ),
        word: { 'document.xml': utf8('<w:document/>') },
      },
      { level: 0 },
    );
    expect(await inspectUpload(stored, 'stored.docx')).toEqual({ ok: true, kind: 'docx' });
  });
});
