// A small flow layout on top of pdf-lib: paragraphs with word wrap and pagination, headings,
// list markers, tables with wrapped cells that may split across pages, and block images. It
// favours never losing text over typographic finesse: a word wider than its column is broken
// between characters, and a table row taller than a page continues on the next one.
import { type PDFDocument, type PDFFont, type PDFPage, rgb } from 'pdf-lib';
import type { DocumentFonts } from './fonts';
import { drawEmbeddedImage, type EmbeddedImage } from './pdf-images';

export interface TextStyle {
  bold: boolean;
  italic: boolean;
  size: number;
  script: 'normal' | 'sup' | 'sub';
}

export interface Span {
  text: string;
  style: TextStyle;
}

export interface Paragraph {
  spans: Span[];
  /** Left indent of the text, in points from the column's left edge. */
  indent: number;
  /** List marker ('•', '3.') drawn to the left of the first line. */
  marker?: Span;
  spaceBefore: number;
  spaceAfter: number;
  /** Headings move to the next page rather than end one. */
  keepWithNext?: boolean;
}

export interface TableCell {
  paragraphs: Paragraph[];
  header: boolean;
  colspan: number;
  rowspan: number;
}

export interface Table {
  rows: TableCell[][];
}

export type Block =
  | { kind: 'paragraph'; paragraph: Paragraph }
  | { kind: 'table'; table: Table }
  /** width and height: the displayed size in points (already turned by EXIF orientation). */
  | { kind: 'image'; image: EmbeddedImage; width: number; height: number }
  | { kind: 'pageBreak' };

export interface PageSetup {
  width: number;
  height: number;
  margin: number;
}

export const LETTER_PAGE: PageSetup = { width: 612, height: 792, margin: 72 };

const LINE_HEIGHT = 1.28;
const ASCENT = 0.93;
const CELL_PADDING = 4;
const MARKER_GAP = 5;
const MIN_COLUMN = 28;

/** A run of text in one font, size and baseline shift, with its measured width. */
interface Piece {
  text: string;
  font: PDFFont;
  size: number;
  rise: number;
  width: number;
}

interface Line {
  pieces: Piece[];
  width: number;
  /** The largest font size on the line: it sets the line's height. */
  size: number;
}

interface Token {
  kind: 'word' | 'space' | 'newline';
  pieces: Piece[];
  width: number;
}

/** Characters that may break anywhere: Han, kana and CJK punctuation (no spaces between words). */
const BREAK_ANYWHERE =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]/u;
const TOKEN_PATTERN =
  /\n| +|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]|[^\n \p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]+/gu;

function lineHeight(line: Line): number {
  return line.size * LINE_HEIGHT;
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/**
 * Shares the width among columns: all natural widths when they fit; otherwise columns that fit
 * in a fair share keep their natural width (a short "Grade" column is not squeezed beside a long
 * comment column), and the others share the rest by need, never below their longest word
 * unless even those words do not fit.
 */
export function distributeWidths(
  natural: number[],
  minimum: number[],
  available: number,
): number[] {
  const naturalTotal = sum(natural);
  if (naturalTotal <= available) return natural.map((width) => (width * available) / naturalTotal);
  const fair = available / natural.length;
  const narrow = natural.map((width) => width <= fair);
  const rest = available - sum(natural.filter((_, i) => narrow[i]));
  const wideMinimum = minimum.map((width, i) => (narrow[i] ? 0 : width));
  const wideExtra = natural.map((width, i) => (narrow[i] ? 0 : width - (minimum[i] ?? 0)));
  const minimumTotal = sum(wideMinimum);
  const extraTotal = sum(wideExtra);
  return natural.map((width, i) => {
    if (narrow[i]) return width;
    if (minimumTotal >= rest) return ((wideMinimum[i] ?? 0) * rest) / minimumTotal;
    return (
      (wideMinimum[i] ?? 0) + ((rest - minimumTotal) * (wideExtra[i] ?? 0)) / (extraTotal || 1)
    );
  });
}

export class PdfFlow {
  readonly pages: PDFPage[] = [];
  private page: PDFPage;
  private y: number;

  constructor(
    private readonly doc: PDFDocument,
    private readonly fonts: DocumentFonts,
    private readonly setup: PageSetup = LETTER_PAGE,
  ) {
    this.page = this.newPage();
    this.y = this.top;
  }

  get contentWidth(): number {
    return this.setup.width - 2 * this.setup.margin;
  }
  private get top(): number {
    return this.setup.height - this.setup.margin;
  }
  private get bottom(): number {
    return this.setup.margin;
  }
  private get atTop(): boolean {
    return this.y >= this.top;
  }

  private newPage(): PDFPage {
    this.page = this.doc.addPage([this.setup.width, this.setup.height]);
    this.pages.push(this.page);
    this.y = this.top;
    return this.page;
  }

  // ---- text measuring and wrapping ---------------------------------------------------------

  private pieces(spans: Span[]): Piece[] {
    const pieces: Piece[] = [];
    for (const span of spans) {
      const { script } = span.style;
      const size = script === 'normal' ? span.style.size : span.style.size * 0.65;
      const rise =
        script === 'sup' ? span.style.size * 0.35 : script === 'sub' ? -span.style.size * 0.12 : 0;
      for (const run of this.fonts.runs(span.text, span.style)) {
        pieces.push({ text: run.text, font: run.font, size, rise, width: 0 });
      }
    }
    return pieces;
  }

  private measure(piece: Piece, text: string): number {
    return piece.font.widthOfTextAtSize(text, piece.size);
  }

  /** Cuts pieces into break units: words (which may change font mid-word), spaces and newlines. */
  private tokens(pieces: Piece[]): Token[] {
    const tokens: Token[] = [];
    let joinable = false; // whether the next word fragment continues the previous word
    for (const piece of pieces) {
      for (const match of piece.text.matchAll(TOKEN_PATTERN)) {
        const text = match[0];
        const part: Piece = { ...piece, text, width: this.measure(piece, text) };
        const kind = text === '\n' ? 'newline' : text[0] === ' ' ? 'space' : 'word';
        const breakable = BREAK_ANYWHERE.test(text);
        const last = tokens.at(-1);
        if (kind === 'word' && joinable && !breakable && last?.kind === 'word') {
          last.pieces.push(part);
          last.width += part.width;
        } else {
          tokens.push({ kind, pieces: [part], width: part.width });
        }
        joinable = kind === 'word' && !breakable;
      }
    }
    return tokens;
  }

  /** Splits a token wider than a whole line between characters. */
  private splitToken(token: Token, maxWidth: number): Token[] {
    const chunks: Token[] = [];
    let current: Token = { kind: 'word', pieces: [], width: 0 };
    for (const piece of token.pieces) {
      for (const char of piece.text) {
        const width = this.measure(piece, char);
        if (current.width + width > maxWidth && current.width > 0) {
          chunks.push(current);
          current = { kind: 'word', pieces: [], width: 0 };
        }
        const last = current.pieces.at(-1);
        if (
          last &&
          last.font === piece.font &&
          last.size === piece.size &&
          last.rise === piece.rise
        ) {
          last.text += char;
          last.width += width;
        } else {
          current.pieces.push({ ...piece, text: char, width });
        }
        current.width += width;
      }
    }
    if (current.pieces.length > 0) chunks.push(current);
    return chunks;
  }

  /** Greedy line breaking. Spaces at a break are dropped; explicit newlines always break. */
  wrap(spans: Span[], maxWidth: number, minimumSize: number): Line[] {
    const lines: Line[] = [];
    let current: Piece[] = [];
    let width = 0;
    let pending: Token[] = [];
    let pendingWidth = 0;
    const flush = (force: boolean) => {
      if (current.length > 0 || force) lines.push(this.line(current, minimumSize));
      current = [];
      width = 0;
      pending = [];
      pendingWidth = 0;
    };
    const queue = this.tokens(this.pieces(spans));
    for (let i = 0; i < queue.length; i++) {
      const token = queue[i];
      if (!token) continue;
      if (token.kind === 'newline') {
        flush(true);
        continue;
      }
      if (token.kind === 'space') {
        if (current.length > 0) {
          pending.push(token);
          pendingWidth += token.width;
        }
        continue;
      }
      if (width + pendingWidth + token.width <= maxWidth) {
        for (const space of pending) current.push(...space.pieces);
        current.push(...token.pieces);
        width += pendingWidth + token.width;
        pending = [];
        pendingWidth = 0;
      } else if (current.length > 0) {
        flush(false);
        i--; // try this word again at the start of the next line
      } else {
        const chunks = this.splitToken(token, maxWidth);
        for (const [index, chunk] of chunks.entries()) {
          current.push(...chunk.pieces);
          width += chunk.width;
          if (index < chunks.length - 1) flush(false);
        }
      }
    }
    flush(false);
    return lines;
  }

  private line(pieces: Piece[], minimumSize: number): Line {
    const merged: Piece[] = [];
    for (const piece of pieces) {
      const last = merged.at(-1);
      if (
        last &&
        last.font === piece.font &&
        last.size === piece.size &&
        last.rise === piece.rise
      ) {
        last.text += piece.text;
        last.width += piece.width;
      } else {
        merged.push({ ...piece });
      }
    }
    return {
      pieces: merged,
      width: merged.reduce((sum, piece) => sum + piece.width, 0),
      size: Math.max(minimumSize, ...merged.map((piece) => (piece.rise === 0 ? piece.size : 0))),
    };
  }

  /** Natural single-line width and widest unbreakable word of some text (for table columns). */
  private measureSpans(spans: Span[], indent: number): { natural: number; longest: number } {
    const tokens = this.tokens(this.pieces(spans));
    let natural = 0;
    let lineWidth = 0;
    let longest = 0;
    for (const token of tokens) {
      if (token.kind === 'newline') {
        lineWidth = 0;
        continue;
      }
      lineWidth += token.width;
      natural = Math.max(natural, lineWidth);
      if (token.kind === 'word') longest = Math.max(longest, token.width);
    }
    return { natural: natural + indent, longest: longest + indent };
  }

  private drawLine(line: Line, x: number, top: number, gray = 0): void {
    const baseline = top - line.size * ASCENT;
    let cursor = x;
    for (const piece of line.pieces) {
      if (piece.text.trim() !== '') {
        this.page.drawText(piece.text, {
          x: cursor,
          y: baseline + piece.rise,
          size: piece.size,
          font: piece.font,
          color: rgb(gray, gray, gray),
        });
      }
      cursor += piece.width;
    }
  }

  private markerLine(paragraph: Paragraph): Line | null {
    if (!paragraph.marker) return null;
    const size = paragraph.marker.style.size;
    return this.wrap([paragraph.marker], Number.POSITIVE_INFINITY, size)[0] ?? null;
  }

  // ---- blocks ------------------------------------------------------------------------------

  paragraph(paragraph: Paragraph, followingLineHeight = 0): void {
    const baseSize = paragraph.spans[0]?.style.size ?? 11;
    const lines = this.wrap(paragraph.spans, this.contentWidth - paragraph.indent, baseSize);
    const marker = this.markerLine(paragraph);
    if (lines.length === 0 && !marker) return;
    if (lines.length === 0) lines.push({ pieces: [], width: 0, size: baseSize });
    if (!this.atTop) this.y -= paragraph.spaceBefore;
    if (paragraph.keepWithNext) {
      const needed = lines.reduce((sum, line) => sum + lineHeight(line), 0) + followingLineHeight;
      if (this.y - needed < this.bottom && !this.atTop) this.newPage();
    }
    const x = this.setup.margin + paragraph.indent;
    lines.forEach((line, index) => {
      const height = lineHeight(line);
      if (this.y - height < this.bottom && !this.atTop) this.newPage();
      if (index === 0 && marker) this.drawLine(marker, x - MARKER_GAP - marker.width, this.y);
      this.drawLine(line, x, this.y);
      this.y -= height;
    });
    this.y -= paragraph.spaceAfter;
  }

  image(image: EmbeddedImage, width: number, height: number): void {
    const maxHeight = (this.top - this.bottom) * 0.75;
    const scale = Math.min(1, this.contentWidth / width, maxHeight / height);
    const drawnWidth = width * scale;
    const drawnHeight = height * scale;
    if (!this.atTop) this.y -= 6;
    if (this.y - drawnHeight < this.bottom) this.newPage();
    drawEmbeddedImage(this.page, image, {
      x: this.setup.margin,
      y: this.y - drawnHeight,
      width: drawnWidth,
      height: drawnHeight,
    });
    this.y -= drawnHeight + 6;
  }

  /** Column widths from content: natural widths when they fit, else shared by need. */
  private columnWidths(table: Table, columnCount: number): number[] {
    const available = this.contentWidth;
    const natural = new Array<number>(columnCount).fill(MIN_COLUMN);
    const minimum = new Array<number>(columnCount).fill(MIN_COLUMN);
    for (const row of table.rows) {
      let column = 0;
      for (const cell of row) {
        if (cell.colspan === 1 && column < columnCount) {
          for (const paragraph of cell.paragraphs) {
            const indent = paragraph.indent + 2 * CELL_PADDING;
            const measured = this.measureSpans(paragraph.spans, indent);
            natural[column] = Math.max(natural[column] ?? 0, measured.natural);
            minimum[column] = Math.max(
              minimum[column] ?? 0,
              Math.min(measured.longest, available / 3),
            );
          }
        }
        column += cell.colspan;
      }
    }
    return distributeWidths(natural, minimum, available);
  }

  table(table: Table): void {
    // Place cells on a grid, leaving room for cells that span rows from above.
    const occupied: number[] = [];
    const placed = table.rows.map((row) => {
      const cells: Array<{ cell: TableCell | null; column: number; span: number }> = [];
      let column = 0;
      const skipOccupied = () => {
        while ((occupied[column] ?? 0) > 0) {
          cells.push({ cell: null, column, span: 1 });
          column++;
        }
      };
      for (const cell of row) {
        skipOccupied();
        cells.push({ cell, column, span: cell.colspan });
        for (let c = column; c < column + cell.colspan; c++) occupied[c] = cell.rowspan;
        column += cell.colspan;
      }
      skipOccupied();
      for (let c = 0; c < occupied.length; c++) occupied[c] = Math.max(0, (occupied[c] ?? 0) - 1);
      return cells;
    });
    const columnCount = Math.max(
      1,
      ...placed.map((cells) => cells.reduce((n, c) => n + c.span, 0)),
    );
    const widths = this.columnWidths(table, columnCount);
    const offsets = widths.map((_, i) => widths.slice(0, i).reduce((a, b) => a + b, 0));
    if (!this.atTop) this.y -= 4;
    for (const cells of placed) this.tableRow(cells, widths, offsets);
    this.y -= 8;
  }

  private tableRow(
    cells: Array<{ cell: TableCell | null; column: number; span: number }>,
    widths: number[],
    offsets: number[],
  ): void {
    const laid = cells.map(({ cell, column, span }) => {
      const x = this.setup.margin + (offsets[column] ?? 0);
      const width = widths.slice(column, column + span).reduce((a, b) => a + b, 0);
      const lines: Array<{ line: Line; indent: number; marker: Line | null; gap: number }> = [];
      for (const paragraph of cell?.paragraphs ?? []) {
        const size = paragraph.spans[0]?.style.size ?? 10;
        const inner = width - 2 * CELL_PADDING - paragraph.indent;
        const marker = this.markerLine(paragraph);
        const wrapped = this.wrap(paragraph.spans, inner, size);
        if (wrapped.length === 0 && marker) wrapped.push({ pieces: [], width: 0, size });
        wrapped.forEach((line, i) => {
          lines.push({
            line,
            indent: paragraph.indent,
            marker: i === 0 ? marker : null,
            gap: i === 0 && lines.length > 0 ? paragraph.spaceBefore : 0,
          });
        });
      }
      return { x, width, lines, header: cell?.header ?? false, next: 0 };
    });
    const heightOf = (entry: (typeof laid)[number]['lines'][number]) =>
      entry.gap + lineHeight(entry.line);
    const rowHeight =
      Math.max(0, ...laid.map((c) => c.lines.reduce((sum, l) => sum + heightOf(l), 0))) +
      2 * CELL_PADDING;
    const pageHeight = this.top - this.bottom;
    if (this.y - rowHeight < this.bottom && rowHeight <= pageHeight && !this.atTop) this.newPage();

    // Draw the row in slices: normally one, more when the row is taller than what is left.
    for (;;) {
      const room = this.y - this.bottom - 2 * CELL_PADDING;
      const fresh = this.atTop;
      const slices = laid.map((cell) => {
        let used = 0;
        let end = cell.next;
        while (end < cell.lines.length) {
          const entry = cell.lines[end];
          if (!entry) break;
          const height = heightOf(entry);
          // On a fresh page always take one line, so even a giant line makes progress.
          if (used + height > room && !(fresh && end === cell.next)) break;
          used += height;
          end++;
        }
        return { end, used };
      });
      const progress = slices.some((slice, i) => slice.end > (laid[i]?.next ?? 0));
      const unfinished = laid.some((cell) => cell.next < cell.lines.length);
      if (unfinished && !progress) {
        this.newPage();
        continue;
      }
      const sliceHeight = Math.max(...slices.map((slice) => slice.used)) + 2 * CELL_PADDING;
      const top = this.y;
      laid.forEach((cell, i) => {
        const slice = slices[i];
        if (!slice) return;
        this.page.drawRectangle({
          x: cell.x,
          y: top - sliceHeight,
          width: cell.width,
          height: sliceHeight,
          borderColor: rgb(0.45, 0.45, 0.45),
          borderWidth: 0.5,
          color: cell.header ? rgb(0.92, 0.92, 0.92) : undefined,
        });
        let y = top - CELL_PADDING;
        for (let l = cell.next; l < slice.end; l++) {
          const entry = cell.lines[l];
          if (!entry) continue;
          y -= l === cell.next ? 0 : entry.gap;
          const x = cell.x + CELL_PADDING + entry.indent;
          if (entry.marker) this.drawLine(entry.marker, x - MARKER_GAP - entry.marker.width, y);
          this.drawLine(entry.line, x, y);
          y -= lineHeight(entry.line);
        }
        cell.next = slice.end;
      });
      this.y = top - sliceHeight;
      if (!laid.some((cell) => cell.next < cell.lines.length)) return;
      this.newPage();
    }
  }

  /**
   * Draws header and footer text in the top and bottom margins of every page, once the page
   * count is known. `pageText` fills in each page's number.
   */
  decorate(
    header: string[],
    footer: string[],
    pageText: (text: string, page: number, pageCount: number) => string,
  ): void {
    const style: TextStyle = { bold: false, italic: false, size: 8, script: 'normal' };
    const lines = (texts: string[], page: number) =>
      texts.flatMap((text) =>
        this.wrap([{ text: pageText(text, page, this.pages.length), style }], this.contentWidth, 8),
      );
    const current = this.page;
    this.pages.forEach((page, index) => {
      this.page = page;
      let y = this.setup.height - this.setup.margin / 2;
      for (const line of lines(header, index + 1)) {
        this.drawLine(line, this.setup.margin, y, 0.35);
        y -= lineHeight(line);
      }
      const below = lines(footer, index + 1);
      y = this.setup.margin / 2 + below.reduce((sum, line) => sum + lineHeight(line), 0);
      for (const line of below) {
        this.drawLine(line, this.setup.margin, y, 0.35);
        y -= lineHeight(line);
      }
    });
    this.page = current;
  }

  /** Lays out blocks in order; a heading keeps at least two lines of what follows with it. */
  blocks(blocks: Block[]): void {
    blocks.forEach((block, index) => {
      if (block.kind === 'paragraph') {
        const next = blocks[index + 1];
        const nextSize =
          next?.kind === 'paragraph' ? (next.paragraph.spans[0]?.style.size ?? 11) : 11;
        this.paragraph(block.paragraph, nextSize * LINE_HEIGHT * 2);
      } else if (block.kind === 'table') {
        this.table(block.table);
      } else if (block.kind === 'pageBreak') {
        if (!this.atTop) this.newPage();
      } else {
        this.image(block.image, block.width, block.height);
      }
    });
  }
}
