// Images inside a PDF page: an XObject already in the document, painted into a box and turned as
// its EXIF orientation says. Shared by uploaded photos (one page each) and pictures in a DOCX.
import {
  concatTransformationMatrix,
  drawObject,
  type PDFPage,
  type PDFRef,
  popGraphicsState,
  pushGraphicsState,
} from 'pdf-lib';

export interface EmbeddedImage {
  ref: PDFRef;
  /** Stored pixel size, before the EXIF orientation is applied. */
  width: number;
  height: number;
  orientation: number;
}

/**
 * The matrix that paints the image XObject (drawn in the unit square, top row at v = 1) into the
 * box so that it appears as the EXIF orientation says. Orientations 5-8 swap width and height.
 */
export function orientationMatrix(
  orientation: number,
  box: { x: number; y: number; width: number; height: number },
): [number, number, number, number, number, number] {
  const { x, y, width: w, height: h } = box;
  switch (orientation) {
    case 2: // mirrored horizontally
      return [-w, 0, 0, h, x + w, y];
    case 3: // rotated 180
      return [-w, 0, 0, -h, x + w, y + h];
    case 4: // mirrored vertically
      return [w, 0, 0, -h, x, y + h];
    case 5: // transposed
      return [0, -h, -w, 0, x + w, y + h];
    case 6: // stored rotated 90 counter-clockwise: turn it clockwise
      return [0, -h, w, 0, x, y + h];
    case 7: // transversed
      return [0, h, w, 0, x, y];
    case 8: // stored rotated 90 clockwise: turn it counter-clockwise
      return [0, h, -w, 0, x + w, y];
    default:
      return [w, 0, 0, h, x, y];
  }
}

/** Bytes of one PNG scanline (without its filter byte). */
/** Paints the image into the box (the box is the displayed, already turned, size). */
export function drawEmbeddedImage(
  page: PDFPage,
  image: EmbeddedImage,
  box: { x: number; y: number; width: number; height: number },
): void {
  const name = page.node.newXObject('Image', image.ref);
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(...orientationMatrix(image.orientation, box)),
    drawObject(name),
    popGraphicsState(),
  );
}
