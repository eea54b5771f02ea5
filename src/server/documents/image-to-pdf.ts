// PNG and JPEG uploads become one US Letter page with the image fitted inside the margins.
import { inflateSync } from 'node:zlib';
import { PDFDocument, PDFHexString, type PDFRef } from 'pdf-lib';
import { drawEmbeddedImage, type EmbeddedImage } from '../pdf/pdf-images';
import { DocumentRejectedError, documentMessages } from './document-errors';
import { type PngInfo, readJpegInfo, readPngInfo } from './image-info';

/** US Letter in points, and half an inch of margin: the page a reviewer prints. */
export const LETTER_SIZE = { width: 612, height: 792 } as const;
export const IMAGE_MARGIN = 36;

export interface ImagePlacement {
  pageWidth: number;
  pageHeight: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Fits an image of the given displayed size inside the margins, keeping its aspect ratio, centred.
 * A landscape image gets a landscape page, so a wide scan is not shrunk to a third of the page.
 */
export function placeImage(displayWidth: number, displayHeight: number): ImagePlacement {
  const landscape = displayWidth > displayHeight;
  const pageWidth = landscape ? LETTER_SIZE.height : LETTER_SIZE.width;
  const pageHeight = landscape ? LETTER_SIZE.width : LETTER_SIZE.height;
  const boxWidth = pageWidth - 2 * IMAGE_MARGIN;
  const boxHeight = pageHeight - 2 * IMAGE_MARGIN;
  const scale = Math.min(boxWidth / displayWidth, boxHeight / displayHeight);
  const width = displayWidth * scale;
  const height = displayHeight * scale;
  return {
    pageWidth,
    pageHeight,
    x: (pageWidth - width) / 2,
    y: (pageHeight - height) / 2,
    width,
    height,
  };
}

function rowBytes(info: PngInfo): number {
  const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[info.colorType] ?? 0;
  return Math.ceil((info.width * channels * info.bitDepth) / 8);
}

/** The concatenated IDAT payload and the palette, read from an already validated PNG. */
function pngChunks(bytes: Uint8Array): { idat: Uint8Array; palette: Uint8Array | null } {
  const data = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts: Uint8Array[] = [];
  let palette: Uint8Array | null = null;
  for (let at = 8; at + 12 <= bytes.byteLength; ) {
    const length = data.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (type === 'IDAT') parts.push(body);
    if (type === 'PLTE') palette = body;
    if (type === 'IEND') break;
    at += 12 + length;
  }
  return { idat: Buffer.concat(parts), palette };
}

/**
 * Opaque, non-interlaced PNGs go into the PDF without being decoded: their IDAT stream already is
 * a zlib stream with PNG row filters, which PDF's FlateDecode undoes with /Predictor 15. Inflating
 * once (native zlib, bounded to the exact expected size) proves the data is whole. Images with
 * transparency or interlacing go through pdf-lib's decoder, which builds the soft mask.
 */
function embedPngDirect(doc: PDFDocument, bytes: Uint8Array, info: PngInfo): PDFRef {
  const { idat, palette } = pngChunks(bytes);
  const expected = info.height * (1 + rowBytes(info));
  let inflated: Buffer;
  try {
    inflated = inflateSync(idat, { maxOutputLength: expected });
  } catch (error) {
    throw new DocumentRejectedError(documentMessages.imageDamaged, { cause: error });
  }
  if (inflated.byteLength !== expected) {
    throw new DocumentRejectedError(documentMessages.imageDamaged);
  }
  const colors = info.colorType === 2 ? 3 : 1;
  let colorSpace: string | [string, string, number, PDFHexString] =
    info.colorType === 2 ? 'DeviceRGB' : 'DeviceGray';
  if (info.colorType === 3) {
    if (!palette) throw new DocumentRejectedError(documentMessages.imageDamaged);
    const hex = Buffer.from(palette).toString('hex');
    colorSpace = ['Indexed', 'DeviceRGB', palette.byteLength / 3 - 1, PDFHexString.of(hex)];
  }
  const stream = doc.context.stream(idat, {
    Type: 'XObject',
    Subtype: 'Image',
    Width: info.width,
    Height: info.height,
    ColorSpace: colorSpace,
    BitsPerComponent: info.bitDepth,
    Filter: 'FlateDecode',
    DecodeParms: {
      Predictor: 15,
      Colors: colors,
      BitsPerComponent: info.bitDepth,
      Columns: info.width,
    },
  });
  return doc.context.register(stream);
}

/** Adds the image to the document as an XObject; throws a DocumentRejectedError when unusable. */
export async function embedImage(
  doc: PDFDocument,
  bytes: Uint8Array,
  kind: 'png' | 'jpeg',
): Promise<EmbeddedImage> {
  if (kind === 'jpeg') {
    const info = readJpegInfo(bytes);
    try {
      // pdf-lib copies the JPEG as a DCTDecode stream: baseline and progressive alike, no re-encode.
      const image = await doc.embedJpg(bytes);
      return {
        ref: image.ref,
        width: info.width,
        height: info.height,
        orientation: info.orientation,
      };
    } catch (error) {
      throw new DocumentRejectedError(documentMessages.imageDamaged, { cause: error });
    }
  }
  const info = readPngInfo(bytes);
  if (!info.hasTransparency && !info.interlaced) {
    const ref = embedPngDirect(doc, bytes, info);
    return { ref, width: info.width, height: info.height, orientation: 1 };
  }
  try {
    const image = await doc.embedPng(bytes);
    // Embedding is lazy in pdf-lib; doing it now surfaces a decoding error as a rejection here.
    await image.embed();
    return { ref: image.ref, width: info.width, height: info.height, orientation: 1 };
  } catch (error) {
    throw new DocumentRejectedError(documentMessages.imageDamaged, { cause: error });
  }
}

/** A one-page PDF holding the image, fitted to US Letter and turned as its EXIF data says. */
export async function imageToPdf(bytes: Uint8Array, kind: 'png' | 'jpeg'): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const image = await embedImage(doc, bytes, kind);
  const turned = image.orientation >= 5;
  const placement = placeImage(
    turned ? image.height : image.width,
    turned ? image.width : image.height,
  );
  const page = doc.addPage([placement.pageWidth, placement.pageHeight]);
  drawEmbeddedImage(page, image, placement);
  return doc.save();
}
