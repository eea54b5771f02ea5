import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { costOf, fuzzParameters, MB, mutatedFrom } from '../test/fuzz-support';
import { docxFuzzSeeds } from '../test/hostile-docx';
import { DOCX_LIMITS, inspectUpload } from './inspect-upload';

const seeds = docxFuzzSeeds();

/** What one input may cost: the unpacking budget several times over, and well under a second. */
const MAX_MS = 1_500;
const MAX_BYTES = 4 * DOCX_LIMITS.maxTotalUncompressedBytes + 64 * MB;

describe('DOCX inspection, fed damaged and hostile packages', () => {
  it('answers every upload with a verdict, never an error, in bounded time and memory', async () => {
    await fc.assert(
      fc.asyncProperty(mutatedFrom(seeds), async (bytes) => {
        const cost = await costOf(async () => {
          const verdict = await inspectUpload(bytes, 'statement.docx');
          if (!verdict.ok) expect(verdict.message).toMatch(/\.$/);
        });
        expect(cost.ms).toBeLessThan(MAX_MS);
        expect(cost.bytes).toBeLessThan(MAX_BYTES);
      }),
      fuzzParameters(seeds),
    );
  });
});
