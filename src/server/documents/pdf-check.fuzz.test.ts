import fc from 'fast-check';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { costOf, fuzzParameters, MB, mutatedFrom, outcomeOf } from '../test/fuzz-support';
import { makePdfWithScriptChains, makeStructureStreamBomb } from '../test/hostile-pdf';
import { makeEncryptedPdf, makePdf } from '../test/sample-files';
import { DocumentRejectedError } from './document-errors';
import { loadUploadedPdf, MAX_STRUCTURE_BYTES, normalisePdf } from './pdf-check';

let seeds: Uint8Array[] = [];

/** Four parses of the input (two loads), at most a few microseconds a byte each. */
const MS_PER_BYTE = 0.04;

beforeAll(async () => {
  const plain = await makePdf([['Official transcript'], ['Page two']]);
  seeds = [
    plain,
    // pdf-lib's default: object streams and a cross-reference stream.
    await (await PDFDocument.load(plain)).save(),
    await makeEncryptedPdf(),
    await makePdfWithScriptChains(),
    await makeStructureStreamBomb(64 * MB),
    await makeStructureStreamBomb(64 * MB, { type: 'XRef' }),
    await makeStructureStreamBomb(400 * MB, { layers: 2 }),
    plain.subarray(0, plain.length - 40),
    new TextEncoder().encode('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n'),
    new TextEncoder().encode(`%PDF-1.7\n1 0 obj\n${'['.repeat(50_000)}\nendobj\n%%EOF\n`),
  ];
  // pdf-lib reports every object it skips on the console; thousands of inputs would drown the log.
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterAll(() => {
  vi.restoreAllMocks();
});

describe('PDF checks, fed damaged and hostile PDFs', () => {
  it('load and normalise or refuse with a DocumentRejectedError, in bounded time and memory', async () => {
    await fc.assert(
      fc.asyncProperty(mutatedFrom(seeds, 4096), async (bytes) => {
        const cost = await costOf(() =>
          outcomeOf(async () => {
            await loadUploadedPdf(bytes);
            await normalisePdf(bytes);
          }, [DocumentRejectedError]),
        );
        // pdf-lib reads bytes that are no PDF objects at several microseconds a byte (it makes
        // an Error at each one), so the bound grows with the input, linearly.
        expect(cost.ms).toBeLessThan(1_000 + bytes.length * MS_PER_BYTE);
        expect(cost.bytes).toBeLessThan(4 * MAX_STRUCTURE_BYTES + 64 * MB);
      }),
      fuzzParameters(seeds),
    );
  }, 120_000);
});
