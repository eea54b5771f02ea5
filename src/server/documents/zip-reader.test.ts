import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { inflateEntry, readZip, readZipDirectory, ZipError } from './zip-reader';

const utf8 = (text: string) => new TextEncoder().encode(text);
const limits = { maxEntries: 10, maxTotalUncompressedBytes: 1024 * 1024 };

function reason(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ZipError);
    return (error as ZipError).reason;
  }
  throw new Error('expected a ZipError');
}

describe('zip reader', () => {
  it('reads entries written by another zipper, stored and deflated', () => {
    const zip = zipSync({
      'a.txt': [utf8('hello '.repeat(100)), { level: 9 }],
      'b/c.xml': [utf8('<c/>'), { level: 0 }],
    });
    const { entries, files } = readZip(zip, limits, () => true);
    expect(entries.map((entry) => [entry.name, entry.method])).toEqual([
      ['a.txt', 8],
      ['b/c.xml', 0],
    ]);
    expect(new TextDecoder().decode(files.get('a.txt'))).toBe('hello '.repeat(100));
    expect(new TextDecoder().decode(files.get('b/c.xml'))).toBe('<c/>');
  });

  it('finds the directory behind an archive comment', () => {
    const zip = zipSync({ 'a.txt': utf8('x') }, { comment: 'PK\x05\x06 lookalike in a comment' });
    expect(readZipDirectory(zip, limits).map((entry) => entry.name)).toEqual(['a.txt']);
  });

  it('refuses too many entries before reading any of them', () => {
    const files: Record<string, Uint8Array> = {};
    for (let i = 0; i < 11; i++) files[`f${i}`] = utf8('x');
    expect(reason(() => readZipDirectory(zipSync(files), limits))).toBe('too-many-entries');
  });

  it('refuses a declared total above the budget before inflating', () => {
    const zip = zipSync({ big: [new Uint8Array(2 * 1024 * 1024), { level: 9 }] });
    expect(reason(() => readZipDirectory(zip, limits))).toBe('too-large');
  });

  it('stops inflating at the declared size when an entry lies about it', () => {
    const zip = zipSync({ big: [new Uint8Array(512 * 1024), { level: 9 }] });
    const entry = readZipDirectory(zip, limits)[0];
    if (!entry) throw new Error('no entry');
    expect(reason(() => inflateEntry(zip, { ...entry, uncompressedSize: 100 }, 1000))).toBe(
      'too-large',
    );
  });

  it('shares one budget across entries', () => {
    const zip = zipSync({
      a: [new Uint8Array(600 * 1024), { level: 9 }],
      b: [new Uint8Array(600 * 1024), { level: 9 }],
    });
    expect(reason(() => readZip(zip, limits))).toBe('too-large');
  });

  it('refuses duplicate names, odd methods and data that is not a ZIP', () => {
    const zip = zipSync({ aa: utf8('1'), ab: utf8('2') });
    const text = Buffer.from(zip).toString('latin1');
    const renamed = Buffer.from(text.replaceAll('ab', 'aa'), 'latin1');
    expect(reason(() => readZipDirectory(renamed, limits))).toBe('damaged');

    const methodPatched = zip.slice();
    const central = text.indexOf('PK\x01\x02');
    new DataView(methodPatched.buffer).setUint16(central + 10, 12, true); // bzip2
    expect(reason(() => readZipDirectory(methodPatched, limits))).toBe('unsupported');

    expect(reason(() => readZipDirectory(utf8('not a zip at all, just text'), limits))).toBe(
      'not-zip',
    );
  });
});
