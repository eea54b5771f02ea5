import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  type PDFObject,
  PDFRawStream,
  type PDFRef,
  PDFString,
} from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { FILE_MAX_BYTES } from '../../shared/constants';
import { makePdfWithScriptChains, makeStructureStreamBomb, register } from '../test/hostile-pdf';
import { extractPdfText } from '../test/pdf-text';
import { makePdf } from '../test/sample-files';
import { DocumentRejectedError, documentMessages } from './document-errors';
import { loadUploadedPdf, MAX_STRUCTURE_BYTES, normalisePdf } from './pdf-check';

/** Every name and text string in every object of the PDF, with the key each sits under. */
function contentsOf(doc: PDFDocument): { names: Set<string>; strings: string[] } {
  const names = new Set<string>();
  const strings: string[] = [];
  const pending: PDFObject[] = doc.context.enumerateIndirectObjects().map(([, object]) => object);
  if (doc.context.trailerInfo.Root) pending.push(doc.context.trailerInfo.Root);
  const seen = new Set<PDFObject>();
  while (pending.length > 0) {
    const object = pending.pop();
    if (!object || seen.has(object)) continue;
    seen.add(object);
    if (object instanceof PDFName) names.add(object.decodeText());
    else if (object instanceof PDFString || object instanceof PDFHexString) {
      strings.push(object.decodeText());
    } else if (object instanceof PDFArray) pending.push(...object.asArray());
    else if (object instanceof PDFDict || object instanceof PDFRawStream) {
      const dict = object instanceof PDFRawStream ? object.dict : object;
      for (const [key, value] of dict.entries()) pending.push(key, value);
    }
  }
  return { names, strings };
}

/** The action types left anywhere in the PDF. */
function actionTypes(doc: PDFDocument): string[] {
  const types: string[] = [];
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    const dicts = object instanceof PDFDict ? [object] : [];
    while (dicts.length > 0) {
      const dict = dicts.pop();
      if (!dict) continue;
      const type = dict.get(PDFName.of('S'));
      if (type instanceof PDFName && dict.has(PDFName.of('URI')) === false) {
        if (
          [
            'JavaScript',
            'Launch',
            'SubmitForm',
            'ImportData',
            'ResetForm',
            'GoToR',
            'GoToE',
            'Rendition',
            'Hide',
          ].includes(type.decodeText())
        ) {
          types.push(type.decodeText());
        }
      }
      for (const [, value] of dict.entries()) {
        if (value instanceof PDFDict) dicts.push(value);
        if (value instanceof PDFArray) {
          for (const item of value.asArray()) if (item instanceof PDFDict) dicts.push(item);
        }
      }
    }
  }
  return types;
}

describe('PDF normalisation removes every action a viewer would run', () => {
  it('leaves no JavaScript, however deep in a /Next chain it sits', async () => {
    const source = await makePdfWithScriptChains();
    expect(Buffer.from(source).toString('latin1')).toContain('/JavaScript');

    const cleaned = await normalisePdf(source);
    const doc = await PDFDocument.load(cleaned);
    const { names, strings } = contentsOf(doc);
    expect(names.has('JS')).toBe(false);
    expect(names.has('JavaScript')).toBe(false);
    expect(names.has('AA')).toBe(false);
    expect(names.has('OpenAction')).toBe(false);
    expect(strings.filter((text) => text.includes('app.alert'))).toEqual([]);
    expect(actionTypes(doc)).toEqual([]);
    expect(strings.filter((text) => /^(file|javascript):/i.test(text))).toEqual([]);
    // Written out without object streams, the bytes show it too.
    const flat = Buffer.from(await doc.save({ useObjectStreams: false })).toString('latin1');
    expect(flat).not.toMatch(/\/JS\b/);
    expect(flat).not.toContain('/JavaScript');
    expect(await extractPdfText(cleaned)).toContain('Transcript page');
  });

  it('keeps links to web addresses and pages, without what was chained after them', async () => {
    const cleaned = await PDFDocument.load(await normalisePdf(await makePdfWithScriptChains()));
    const annotations = cleaned.getPage(0).node.lookup(PDFName.of('Annots'), PDFArray);
    const first = annotations.lookup(0, PDFDict).lookup(PDFName.of('A'), PDFDict);
    expect(first.lookup(PDFName.of('URI'), PDFString).decodeText()).toBe('https://example.edu/a');
    const next = first.lookup(PDFName.of('Next'), PDFArray);
    const kept = next
      .asArray()
      .map((item) =>
        (cleaned.context.lookup(item) as PDFDict).lookup(PDFName.of('S'), PDFName).decodeText(),
      );
    expect(kept).toEqual(['GoTo', 'Named']);
    const named = next.lookup(1, PDFDict).lookup(PDFName.of('Next'), PDFArray);
    expect(named.lookup(0, PDFDict).lookup(PDFName.of('URI'), PDFString).decodeText()).toBe(
      'https://example.edu/b',
    );
    expect(named.lookup(0, PDFDict).has(PDFName.of('Next'))).toBe(false);
  });

  it('drops annotations that carry files or media', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage();
    const { context } = doc;
    const attachment = register(context, {
      Type: 'Annot',
      Subtype: 'FileAttachment',
      Rect: [0, 0, 10, 10],
      FS: { Type: 'Filespec', F: PDFString.of('run.exe') },
    });
    const screen = register(context, { Type: 'Annot', Subtype: 'Screen', Rect: [0, 0, 10, 10] });
    const text = register(context, { Type: 'Annot', Subtype: 'Text', Rect: [0, 0, 10, 10] });
    page.node.set(PDFName.of('Annots'), context.obj([attachment, screen, text]));
    const cleaned = await PDFDocument.load(await normalisePdf(await doc.save()));
    const annotations = cleaned.getPage(0).node.lookup(PDFName.of('Annots'), PDFArray);
    expect(
      annotations
        .asArray()
        .map((item) =>
          (cleaned.context.lookup(item as PDFRef) as PDFDict)
            .lookup(PDFName.of('Subtype'), PDFName)
            .decodeText(),
        ),
    ).toEqual(['Text']);
  });
});

describe('PDF loading stays within memory', () => {
  async function refusal(bytes: Uint8Array): Promise<string> {
    try {
      await loadUploadedPdf(bytes);
    } catch (error) {
      expect(error).toBeInstanceOf(DocumentRejectedError);
      return (error as Error).message;
    }
    throw new Error('expected a refusal');
  }

  it.each([
    ['an object stream', { type: 'ObjStm' as const }],
    ['a cross-reference stream', { type: 'XRef' as const }],
  ])('refuses %s that inflates past the limit, without inflating it', async (_, options) => {
    const bomb = await makeStructureStreamBomb(200 * 1024 * 1024, options);
    expect(bomb.byteLength).toBeLessThan(FILE_MAX_BYTES);
    const before = process.memoryUsage().arrayBuffers;
    const started = performance.now();
    expect(await refusal(bomb)).toBe(documentMessages.pdfTooBig);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(MAX_STRUCTURE_BYTES * 3);
  });

  it('refuses a bomb deflated twice, which each layer hides from a look at the raw bytes', async () => {
    const bomb = await makeStructureStreamBomb(500 * 1024 * 1024, { layers: 2 });
    expect(bomb.byteLength).toBeLessThan(64 * 1024);
    expect(await refusal(bomb)).toBe(documentMessages.pdfTooBig);
  });

  it('loads PDFs whose structure streams fit, as every ordinary PDF does', async () => {
    // pdf-lib writes object streams and a cross-reference stream by default.
    const withObjectStreams = await (await PDFDocument.load(await makePdf())).save();
    await expect(loadUploadedPdf(withObjectStreams)).resolves.toBeInstanceOf(PDFDocument);
  });
});
