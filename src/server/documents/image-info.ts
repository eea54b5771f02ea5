// Reads what an uploaded image claims about itself without decoding its pixels: dimensions (so a
// tiny file that would inflate to gigabytes of pixels is refused before any decoder runs), the
// structure (so damaged files fail with a clear message) and the EXIF orientation of photos.
import { crc32 } from 'node:zlib';
import {
  DocumentRejectedError,
  documentMessages,
  MAX_DECODED_IMAGE_MEGAPIXELS,
  MAX_IMAGE_MEGAPIXELS,
} from './document-errors';

export interface PngInfo {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  interlaced: boolean;
  /** An alpha channel or a tRNS chunk: the PDF needs a soft mask. */
  hasTransparency: boolean;
}

export interface JpegInfo {
  width: number;
  height: number;
  components: number;
  progressive: boolean;
  /** EXIF orientation 1-8 (1 = as stored). */
  orientation: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const MAX_PIXELS = MAX_IMAGE_MEGAPIXELS * 1_000_000;

/** Bit depths the PNG specification allows for each colour type. */
const PNG_DEPTHS: Readonly<Record<number, readonly number[]>> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};

function damaged(detail: string): DocumentRejectedError {
  return new DocumentRejectedError(documentMessages.imageDamaged, { cause: new Error(detail) });
}

function checkPixels(width: number, height: number): void {
  if (width <= 0 || height <= 0) throw damaged('zero dimension');
  if (width * height > MAX_PIXELS) {
    throw new DocumentRejectedError(documentMessages.imageTooManyPixels);
  }
}

export function isPng(bytes: Uint8Array): boolean {
  return PNG_SIGNATURE.every((byte, i) => bytes[i] === byte);
}

/**
 * Walks every chunk: IHDR first and valid, each CRC right, IDAT present, IEND reached. Cheap
 * (CRC-32 only), so it runs at upload time; the pixels are decoded only at conversion.
 */
export function readPngInfo(bytes: Uint8Array): PngInfo {
  if (!isPng(bytes)) throw damaged('no PNG signature');
  const data = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 8;
  let info: PngInfo | null = null;
  let sawIdat = false;
  let sawPalette = false;
  while (at + 12 <= bytes.byteLength) {
    const length = data.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const end = at + 12 + length;
    if (length > 0x7fffffff || end > bytes.byteLength) throw damaged(`chunk ${type} overruns`);
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) >>> 0 !== data.getUint32(end - 4)) {
      throw damaged(`chunk ${type} fails its CRC`);
    }
    if (info === null && type !== 'IHDR') throw damaged('IHDR is not first');
    switch (type) {
      case 'IHDR': {
        if (info !== null || length !== 13) throw damaged('bad IHDR');
        const bitDepth = bytes[at + 16] ?? 0;
        const colorType = bytes[at + 17] ?? 0;
        const interlace = bytes[at + 20] ?? 0;
        if (!PNG_DEPTHS[colorType]?.includes(bitDepth)) throw damaged('bad colour type or depth');
        if (bytes[at + 18] !== 0 || bytes[at + 19] !== 0 || interlace > 1) {
          throw damaged('unknown compression, filter or interlace method');
        }
        info = {
          width: data.getUint32(at + 8),
          height: data.getUint32(at + 12),
          bitDepth,
          colorType,
          interlaced: interlace === 1,
          hasTransparency: colorType === 4 || colorType === 6,
        };
        checkPixels(info.width, info.height);
        break;
      }
      case 'PLTE':
        sawPalette = true;
        break;
      case 'tRNS':
        if (info) info.hasTransparency = true;
        break;
      case 'IDAT':
        sawIdat = true;
        break;
      case 'IEND':
        if (!info || !sawIdat) throw damaged('no image data');
        if (info.colorType === 3 && !sawPalette) throw damaged('palette image without PLTE');
        if (
          (info.hasTransparency || info.interlaced) &&
          info.width * info.height > MAX_DECODED_IMAGE_MEGAPIXELS * 1_000_000
        ) {
          throw new DocumentRejectedError(documentMessages.transparentImageTooManyPixels);
        }
        return info;
    }
    at = end;
  }
  throw damaged('no IEND chunk: the file is cut short');
}

export function isJpeg(bytes: Uint8Array): boolean {
  return bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
}

/** SOFn markers that carry frame dimensions (C4 DHT, C8 JPG and CC DAC are not frames). */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** The Orientation tag (0x0112) of IFD0 in an APP1 Exif payload; 1 when absent or odd. */
export function readExifOrientation(app1: Uint8Array): number {
  const exifHeader = [0x45, 0x78, 0x69, 0x66, 0, 0];
  if (!exifHeader.every((byte, i) => app1[i] === byte)) return 1;
  const tiff = app1.subarray(6);
  if (tiff.byteLength < 8) return 1;
  const data = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  const order = data.getUint16(0);
  if (order !== 0x4949 && order !== 0x4d4d) return 1;
  const little = order === 0x4949;
  const ifd = data.getUint32(4, little);
  if (ifd + 2 > tiff.byteLength) return 1;
  const count = data.getUint16(ifd, little);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > tiff.byteLength) return 1;
    if (data.getUint16(entry, little) === 0x0112 && data.getUint16(entry + 2, little) === 3) {
      const value = data.getUint16(entry + 8, little);
      return value >= 1 && value <= 8 ? value : 1;
    }
  }
  return 1;
}

/**
 * Walks the marker segments up to the start of scan: a frame header must come first, with sane
 * dimensions. The entropy-coded data is not decoded (the PDF carries it as it is).
 */
export function readJpegInfo(bytes: Uint8Array): JpegInfo {
  if (!isJpeg(bytes)) throw damaged('no JPEG SOI marker');
  const data = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 2;
  let frame: Omit<JpegInfo, 'orientation'> | null = null;
  let orientation = 1;
  while (at + 4 <= bytes.byteLength) {
    if (bytes[at] !== 0xff) throw damaged(`expected a marker at ${at}`);
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2; // standalone markers carry no length
      continue;
    }
    if (marker === 0xd9) break; // EOI before any scan
    const length = data.getUint16(at + 2);
    const end = at + 2 + length;
    if (length < 2 || end > bytes.byteLength) throw damaged(`segment ${marker} overruns`);
    if (isStartOfFrame(marker)) {
      if (length < 8) throw damaged('short frame header');
      frame = {
        height: data.getUint16(at + 5),
        width: data.getUint16(at + 7),
        components: bytes[at + 9] ?? 0,
        progressive: marker === 0xc2 || marker === 0xc6 || marker === 0xca || marker === 0xce,
      };
      if (![1, 3, 4].includes(frame.components)) throw damaged('unusual component count');
      // A height of 0 defers it to a DNL marker, which PDF readers do not support.
      checkPixels(frame.width, frame.height);
    } else if (marker === 0xe1 && orientation === 1) {
      orientation = readExifOrientation(bytes.subarray(at + 4, end));
    } else if (marker === 0xda) {
      if (!frame) throw damaged('scan before frame header');
      return { ...frame, orientation };
    }
    at = end;
  }
  throw damaged('no image scan: the file is cut short');
}
