import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { makeJpeg, makePng, withExifOrientation } from '../test/sample-files';
import { DocumentRejectedError, documentMessages } from './document-errors';
import { readExifOrientation, readJpegInfo, readPngInfo } from './image-info';

describe('image headers', () => {
  it('reads PNG dimensions, colour type and transparency', () => {
    expect(readPngInfo(makePng({ width: 30, height: 20 }))).toEqual({
      width: 30,
      height: 20,
      bitDepth: 8,
      colorType: 2,
      interlaced: false,
      hasTransparency: false,
    });
    expect(readPngInfo(makePng({ width: 3, height: 2, color: 'rgba' })).hasTransparency).toBe(true);
    expect(
      readPngInfo(makePng({ width: 3, height: 2, color: 'palette', paletteAlpha: true }))
        .hasTransparency,
    ).toBe(true);
  });

  it('reads JPEG dimensions and components', () => {
    expect(readJpegInfo(makeJpeg({ width: 33, height: 17 }))).toEqual({
      width: 33,
      height: 17,
      components: 3,
      progressive: false,
      orientation: 1,
    });
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])('reads EXIF orientation %i', (orientation) => {
    expect(readJpegInfo(makeJpeg({ width: 8, height: 8, orientation })).orientation).toBe(
      orientation,
    );
  });

  it('ignores EXIF data it cannot read', () => {
    expect(readExifOrientation(new Uint8Array([1, 2, 3]))).toBe(1);
    expect(readExifOrientation(new TextEncoder().encode('Exif\0\0XX'))).toBe(1);
    const out = withExifOrientation(makeJpeg({ width: 8, height: 8 }), 42);
    expect(readJpegInfo(out).orientation).toBe(1);
  });

  it('allows fewer pixels in PNGs that must be decoded (transparency)', () => {
    /** A tiny PNG whose header claims another size (IHDR CRC recomputed). */
    const claiming = (color: 'rgb' | 'rgba', width: number, height: number) => {
      const png = makePng({ width: 2, height: 2, color });
      const view = new DataView(png.buffer);
      view.setUint32(16, width);
      view.setUint32(20, height);
      view.setUint32(29, crc32(png.subarray(12, 29)) >>> 0);
      return png;
    };
    expect(readPngInfo(claiming('rgb', 6000, 6000)).width).toBe(6000);
    expect(readPngInfo(claiming('rgba', 4000, 4000)).width).toBe(4000);
    expect(() => readPngInfo(claiming('rgba', 4100, 4000))).toThrow(
      new DocumentRejectedError(documentMessages.transparentImageTooManyPixels),
    );
  });

  it('refuses images over 40 megapixels by their header alone', () => {
    const jpeg = makeJpeg({ width: 8, height: 8 });
    const sof = Buffer.from(jpeg).indexOf(Buffer.from([0xff, 0xc0]));
    const view = new DataView(jpeg.buffer, jpeg.byteOffset);
    view.setUint16(sof + 5, 10_000);
    view.setUint16(sof + 7, 10_000);
    expect(() => readJpegInfo(jpeg)).toThrow(
      new DocumentRejectedError(documentMessages.imageTooManyPixels),
    );
  });
});
