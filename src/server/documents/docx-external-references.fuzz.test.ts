import fc from 'fast-check';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { costOf, fuzzParameters, MB, mutatedFrom, outcomeOf } from '../test/fuzz-support';
import { docxFuzzSeeds, HOSTILE_DOCX, UNCLOSED_MARKUP, withPart } from '../test/hostile-docx';
import { DocumentRejectedError } from './document-errors';
import { stripExternalReferences } from './docx-external-references';
import { DOCX_LIMITS } from './inspect-upload';

const MAX_MS = 1_500;
const MAX_BYTES = 4 * DOCX_LIMITS.maxTotalUncompressedBytes + 64 * MB;

const packages = docxFuzzSeeds();

/** The hostile packages, each with the name of the part holding its reference. */
const hostile = Object.values(HOSTILE_DOCX).map((make) => {
  const docx = make((name) => `http://remote.invalid/${name}`);
  const parts = unzipSync(docx);
  const name =
    Object.keys(parts).find(
      (part) =>
        part.endsWith('.xml') &&
        /remote\.invalid|r:link|fldSimple|instrText/.test(new TextDecoder().decode(parts[part])),
    ) ?? 'word/document.xml';
  return { docx, name, xml: parts[name] ?? new Uint8Array() };
});

describe('stripping external references, fed damaged and hostile packages', () => {
  it('strips or refuses every package with a DocumentRejectedError, in bounded time and memory', async () => {
    await fc.assert(
      fc.asyncProperty(mutatedFrom(packages), async (bytes) => {
        const cost = await costOf(() =>
          outcomeOf(() => stripExternalReferences(bytes), [DocumentRejectedError]),
        );
        expect(cost.ms).toBeLessThan(MAX_MS);
        expect(cost.bytes).toBeLessThan(MAX_BYTES);
      }),
      fuzzParameters(packages),
    );
  });

  it('leaves nothing to strip, whatever the XML of the part holding the reference', async () => {
    // Mutating the XML inside an intact package reaches the reference rules; mutating the zip
    // mostly breaks a checksum.
    const xmlSeeds = [
      ...hostile.map((item) => item.xml),
      ...Object.values(UNCLOSED_MARKUP).map((text) => new TextEncoder().encode(text)),
    ];
    const input = fc.tuple(fc.nat(hostile.length - 1), mutatedFrom(xmlSeeds));
    await fc.assert(
      fc.asyncProperty(input, async ([which, xml]) => {
        const target = hostile[which];
        if (!target) return;
        const docx = withPart(target.docx, target.name, xml);
        const cost = await costOf(() =>
          outcomeOf(() => {
            const once = stripExternalReferences(docx);
            expect(stripExternalReferences(once.docx).removed).toBe(0);
          }, [DocumentRejectedError]),
        );
        expect(cost.ms).toBeLessThan(MAX_MS);
        expect(cost.bytes).toBeLessThan(MAX_BYTES);
      }),
      { ...fuzzParameters([]), examples: [] },
    );
  });
});
