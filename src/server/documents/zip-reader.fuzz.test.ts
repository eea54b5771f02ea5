import fc from 'fast-check';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { costOf, fuzzParameters, MB, mutatedFrom, outcomeOf } from '../test/fuzz-support';
import { HOSTILE_DOCX } from '../test/hostile-docx';
import {
  makeFivePageDocx,
  makeManyEntriesDocx,
  makeSampleDocx,
  makeZipBombDocx,
} from '../test/sample-files';
import { DOCX_LIMITS } from './inspect-upload';
import { readZip, ZipError } from './zip-reader';

const utf8 = (text: string) => new TextEncoder().encode(text);

/** Offsets of the central directory records and the end record of a ZIP. */
function layout(zip: Uint8Array) {
  const data = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const eocd = zip.byteLength - 22;
  const count = data.getUint16(eocd + 10, true);
  const directory = data.getUint32(eocd + 16, true);
  return { data, eocd, count, directory };
}

/** The ZIP with every central record's declared uncompressed size set to `size`. */
function withDeclaredSize(zip: Uint8Array, size: number): Uint8Array {
  const out = zip.slice();
  const { data, count, directory } = layout(out);
  let at = directory;
  for (let i = 0; i < count; i++) {
    new DataView(out.buffer).setUint32(at + 24, size, true);
    at +=
      46 +
      data.getUint16(at + 28, true) +
      data.getUint16(at + 30, true) +
      data.getUint16(at + 32, true);
  }
  return out;
}

/**
 * A ZIP of one deflated entry whose central directory lists it `copies` times under other names:
 * overlapping entries, the shape of the best-known zip bombs.
 */
function withOverlappingEntries(copies: number): Uint8Array {
  const zip = zipSync({ a: [new Uint8Array(256 * 1024), { level: 9 }] });
  const { eocd, directory } = layout(zip);
  const record = zip.slice(directory, eocd);
  const records: Uint8Array[] = [];
  for (let i = 0; i < copies; i++) {
    const copy = new Uint8Array(46 + 8);
    copy.set(record.subarray(0, 46));
    const view = new DataView(copy.buffer);
    view.setUint16(28, 8, true);
    view.setUint16(30, 0, true);
    view.setUint16(32, 0, true);
    copy.set(utf8(`p${String(i).padStart(7, '0')}`), 46);
    records.push(copy);
  }
  const body = zip.subarray(0, directory);
  const central = Buffer.concat(records);
  const end = zip.slice(eocd);
  const endView = new DataView(end.buffer);
  endView.setUint16(8, copies, true);
  endView.setUint16(10, copies, true);
  endView.setUint32(12, central.length, true);
  endView.setUint32(16, body.length, true);
  return new Uint8Array(Buffer.concat([body, central, end]));
}

const url = (name: string) => `http://remote.invalid/${name}`;

const seeds: Uint8Array[] = [
  zipSync({ 'a.txt': utf8('hello '.repeat(100)), 'b/c.xml': [utf8('<c/>'), { level: 0 }] }),
  zipSync({ 'a.txt': utf8('x') }, { comment: 'PK\x05\x06 lookalike in a comment' }),
  makeSampleDocx(),
  makeFivePageDocx(),
  makeZipBombDocx(),
  makeManyEntriesDocx(1200),
  withDeclaredSize(zipSync({ big: [new Uint8Array(4 * MB), { level: 9 }] }), 100),
  withDeclaredSize(zipSync({ big: [new Uint8Array(MB), { level: 9 }] }), 0xfffffff0),
  withOverlappingEntries(900),
  makeSampleDocx().subarray(0, 3000),
  ...Object.values(HOSTILE_DOCX).map((make) => make(url)),
];

describe('zip reader, fed damaged and hostile archives', () => {
  it('reads or refuses with a ZipError, within its limits, in bounded time and memory', async () => {
    await fc.assert(
      fc.asyncProperty(mutatedFrom(seeds), async (bytes) => {
        let total = 0;
        const cost = await costOf(() =>
          outcomeOf(() => {
            const { entries, files } = readZip(bytes, DOCX_LIMITS, () => true);
            expect(entries.length).toBeLessThanOrEqual(DOCX_LIMITS.maxEntries);
            for (const content of files.values()) total += content.byteLength;
          }, [ZipError]),
        );
        expect(total).toBeLessThanOrEqual(DOCX_LIMITS.maxTotalUncompressedBytes);
        expect(cost.ms).toBeLessThan(2_000);
        // The budget, the input and the output map: never the size an archive claims.
        expect(cost.bytes).toBeLessThan(3 * DOCX_LIMITS.maxTotalUncompressedBytes);
      }),
      fuzzParameters(seeds),
    );
  });

  it('refuses archives whose declared sizes pass the budget before inflating anything', () => {
    const huge = withDeclaredSize(
      zipSync({ a: utf8('small') }),
      DOCX_LIMITS.maxTotalUncompressedBytes + 1,
    );
    const before = process.memoryUsage().arrayBuffers;
    expect(() => readZip(huge, DOCX_LIMITS, () => true)).toThrow(ZipError);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(MB);
    // Overlapping entries each inflate within the one shared budget.
    expect(() => readZip(withOverlappingEntries(900), DOCX_LIMITS)).toThrow(
      expect.objectContaining({ reason: 'too-large' }),
    );
  });
});
