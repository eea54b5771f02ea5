import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { costOf, fuzzParameters, MB, mutatedFrom, outcomeOf } from '../test/fuzz-support';
import { makeJpeg, makePng, withExifOrientation } from '../test/sample-files';
import {
  DocumentRejectedError,
  MAX_DECODED_IMAGE_MEGAPIXELS,
  MAX_IMAGE_MEGAPIXELS,
} from './document-errors';
import { readExifOrientation, readJpegInfo, readPngInfo } from './image-info';

/** A PNG whose header claims another size, its checksum made right: a decompression bomb. */
function pngClaiming(width: number, height: number): Uint8Array {
  const png = makePng({ width: 2, height: 2, color: 'rgba' });
  const view = new DataView(png.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  view.setUint32(29, crc32(png.subarray(12, 29)) >>> 0);
  return png;
}

/** A PNG whose first chunk after the header declares `length` bytes. */
function pngWithChunkLength(length: number): Uint8Array {
  const png = makePng({ width: 4, height: 4 });
  new DataView(png.buffer).setUint32(33, length);
  return png;
}

/** A JPEG whose Exif block points its first directory, and its entry count, out of range. */
function jpegWithLyingExif(): Uint8Array {
  const jpeg = withExifOrientation(makeJpeg({ width: 8, height: 8 }), 6);
  const exif = Buffer.from(jpeg).indexOf(Buffer.from('Exif\0\0MM', 'latin1'));
  const view = new DataView(jpeg.buffer);
  const lying = jpeg.slice();
  new DataView(lying.buffer).setUint32(exif + 10, 0xfffffff0);
  view.setUint16(exif + 14, 0xffff);
  return new Uint8Array(Buffer.concat([jpeg, lying]));
}

const jpeg = makeJpeg({ width: 24, height: 16 });
const sofAt = Buffer.from(jpeg).indexOf(Buffer.from([0xff, 0xc0]));

const seeds = [
  makePng({ width: 9, height: 7 }),
  makePng({ width: 9, height: 7, color: 'rgba' }),
  makePng({ width: 9, height: 7, color: 'gray' }),
  makePng({ width: 9, height: 7, color: 'palette', paletteAlpha: true }),
  pngClaiming(100_000, 100_000),
  pngClaiming(4100, 4000),
  pngWithChunkLength(0xffffffff),
  pngWithChunkLength(0x7ffffff0),
  makePng({ width: 9, height: 7 }).subarray(0, 40),
  jpeg,
  makeJpeg({ width: 24, height: 16, orientation: 6 }),
  jpegWithLyingExif(),
  jpeg.subarray(0, sofAt + 6),
  jpeg.subarray(0, 200),
  new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x00, 0xff, 0xd9]),
  new Uint8Array([0xff, 0xd8, 0xff, ...new Array(64).fill(0xff)]),
];

const MAX_PIXELS = MAX_IMAGE_MEGAPIXELS * 1_000_000;

describe('image headers, fed damaged and hostile images', () => {
  it('read or refuse with a DocumentRejectedError, never claiming too many pixels', async () => {
    await fc.assert(
      fc.asyncProperty(mutatedFrom(seeds), async (bytes) => {
        const cost = await costOf(async () => {
          await outcomeOf(() => {
            const png = readPngInfo(bytes);
            expect(png.width * png.height).toBeLessThanOrEqual(MAX_PIXELS);
            if (png.hasTransparency || png.interlaced) {
              expect(png.width * png.height).toBeLessThanOrEqual(
                MAX_DECODED_IMAGE_MEGAPIXELS * 1_000_000,
              );
            }
          }, [DocumentRejectedError]);
          await outcomeOf(() => {
            const info = readJpegInfo(bytes);
            expect(info.width * info.height).toBeLessThanOrEqual(MAX_PIXELS);
            expect(info.width * info.height).toBeGreaterThan(0);
            expect([1, 2, 3, 4, 5, 6, 7, 8]).toContain(info.orientation);
          }, [DocumentRejectedError]);
          expect([1, 2, 3, 4, 5, 6, 7, 8]).toContain(readExifOrientation(bytes));
        });
        expect(cost.ms).toBeLessThan(250);
        expect(cost.bytes).toBeLessThan(16 * MB);
      }),
      fuzzParameters(seeds),
    );
  });
});
