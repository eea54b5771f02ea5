// DOCX to PDF without LibreOffice: mammoth reads the Word structure (styles, numbering, tables,
// footnotes) into simple HTML, and this module lays that out with pdf-lib. The goal is that every
// word the applicant wrote reaches the reviewer, with headings, lists and tables recognisable;
// it is not a faithful rendering of Word's page layout.
import mammoth from 'mammoth';
import { PDFDocument } from 'pdf-lib';
import { DocumentFonts, normaliseText } from '../pdf/fonts';
import type { EmbeddedImage } from '../pdf/pdf-images';
import {
  type Block,
  type Paragraph,
  PdfFlow,
  type Span,
  type Table,
  type TableCell,
  type TextStyle,
} from '../pdf/pdf-layout';
import { DocumentRejectedError, documentMessages } from './document-errors';
import {
  isHeaderFooterSource,
  PAGE_COUNT_FIELD,
  PAGE_FIELD,
  readHeadersAndFooters,
} from './docx-headers';
import { type HtmlElement, type HtmlNode, parseHtml, textContent } from './html-tree';
import { embedImage } from './image-to-pdf';
import { checkDocxPackage } from './inspect-upload';

const BODY_SIZE = 11;
const TABLE_SIZE = 10;
const HEADING_SIZES: Readonly<Record<string, number>> = {
  h1: 20,
  h2: 16,
  h3: 14,
  h4: 12.5,
  h5: 11.5,
  h6: 11,
};
const LIST_INDENT = 20;
const IMAGE_PREFIX = 'docx-image:';

/** Word styles mammoth does not map by default but whose text should read as headings. */
const STYLE_MAP = [
  "p[style-name='Title'] => h1:fresh",
  "p[style-name='Subtitle'] => h2:fresh",
  // mammoth drops page breaks unless mapped; <hr> carries them to the layout.
  "br[type='page'] => hr",
];

interface Context {
  style: TextStyle;
  indent: number;
  listDepth: number;
  inTable: boolean;
  /** The list marker still waiting for the first paragraph of its item. */
  pending: { marker?: Span };
  images: Map<string, { image: EmbeddedImage | null; alt: string }>;
}

const BULLETS = ['•', '–', '•', '–'];

function toRoman(n: number): string {
  const numerals: Array<[number, string]> = [
    [1000, 'm'],
    [900, 'cm'],
    [500, 'd'],
    [400, 'cd'],
    [100, 'c'],
    [90, 'xc'],
    [50, 'l'],
    [40, 'xl'],
    [10, 'x'],
    [9, 'ix'],
    [5, 'v'],
    [4, 'iv'],
    [1, 'i'],
  ];
  let rest = n;
  let out = '';
  for (const [value, numeral] of numerals) {
    while (rest >= value) {
      out += numeral;
      rest -= value;
    }
  }
  return out;
}

function toLetters(n: number): string {
  let rest = n;
  let out = '';
  while (rest > 0) {
    const digit = (rest - 1) % 26;
    out = String.fromCharCode(97 + digit) + out;
    rest = Math.floor((rest - 1) / 26);
  }
  return out;
}

/** Word's default numbering cycles 1. a. i. by level; mammoth keeps only "ordered". */
function listMarker(ordered: boolean, depth: number, index: number): string {
  if (!ordered) return BULLETS[depth % BULLETS.length] ?? '•';
  const label = [String(index), toLetters(index), toRoman(index)][depth % 3];
  return `${label}.`;
}

function isFootnoteBackLink(element: HtmlElement): boolean {
  return /^#(footnote|endnote|comment)-ref-/.test(element.attrs.href ?? '');
}

const INLINE_TAGS = new Set([
  'a',
  'b',
  'strong',
  'i',
  'em',
  'u',
  's',
  'del',
  'ins',
  'span',
  'sup',
  'sub',
  'small',
  'mark',
  'code',
  'br',
  'img',
  'abbr',
  'cite',
  'q',
  'hr',
]);

function isInline(node: HtmlNode): boolean {
  return node.type === 'text' || INLINE_TAGS.has(node.tag);
}

/** The spans of inline content; images become separate blocks (or a text note inside tables). */
function inlineSpans(nodes: HtmlNode[], ctx: Context, spans: Span[], images: Block[]): void {
  for (const node of nodes) {
    if (node.type === 'text') {
      const text = normaliseText(node.text);
      if (text) spans.push({ text, style: ctx.style });
      continue;
    }
    switch (node.tag) {
      case 'br':
        spans.push({ text: '\n', style: ctx.style });
        break;
      case 'b':
      case 'strong':
        inlineSpans(node.children, { ...ctx, style: { ...ctx.style, bold: true } }, spans, images);
        break;
      case 'i':
      case 'em':
        inlineSpans(
          node.children,
          { ...ctx, style: { ...ctx.style, italic: true } },
          spans,
          images,
        );
        break;
      case 'sup':
      case 'sub':
        inlineSpans(
          node.children,
          { ...ctx, style: { ...ctx.style, script: node.tag } },
          spans,
          images,
        );
        break;
      case 'a':
        if (!isFootnoteBackLink(node)) inlineSpans(node.children, ctx, spans, images);
        break;
      case 'img': {
        const entry = ctx.images.get(node.attrs.src ?? '');
        const alt = normaliseText(node.attrs.alt ?? entry?.alt ?? '').trim();
        if (entry?.image && !ctx.inTable) {
          const turned = entry.image.orientation >= 5;
          // Pixels at 96 per inch, as Word assumes for pictures without a physical size.
          const width = (turned ? entry.image.height : entry.image.width) * 0.75;
          const height = (turned ? entry.image.width : entry.image.height) * 0.75;
          images.push({ kind: 'image', image: entry.image, width, height });
          if (alt)
            images.push(
              paragraphBlock([{ text: alt, style: { ...ctx.style, italic: true } }], ctx),
            );
        } else {
          spans.push({
            text: alt ? `[Image: ${alt}]` : '[Image]',
            style: { ...ctx.style, italic: true },
          });
        }
        break;
      }
      default:
        inlineSpans(node.children, ctx, spans, images);
    }
  }
}

function paragraphBlock(spans: Span[], ctx: Context, extra: Partial<Paragraph> = {}): Block {
  const marker = ctx.pending.marker;
  ctx.pending.marker = undefined;
  return {
    kind: 'paragraph',
    paragraph: {
      spans,
      indent: ctx.indent,
      marker,
      spaceBefore: ctx.listDepth > 0 ? 1 : ctx.inTable ? 2 : 3,
      spaceAfter: ctx.listDepth > 0 ? 1 : ctx.inTable ? 0 : 5,
      ...extra,
    },
  };
}

function flushInline(nodes: HtmlNode[], ctx: Context, out: Block[]): void {
  // A page break inside a paragraph splits it: text before, the break, text after.
  const pageBreak = nodes.findIndex((node) => node.type === 'element' && node.tag === 'hr');
  if (pageBreak >= 0) {
    flushInline(nodes.slice(0, pageBreak), ctx, out);
    if (!ctx.inTable) out.push({ kind: 'pageBreak' });
    flushInline(nodes.slice(pageBreak + 1), ctx, out);
    return;
  }
  if (nodes.length === 0) return;
  const spans: Span[] = [];
  const images: Block[] = [];
  inlineSpans(nodes, ctx, spans, images);
  const hasText = spans.some((span) => span.text.trim() !== '');
  if (hasText || ctx.pending.marker) out.push(paragraphBlock(hasText ? spans : [], ctx));
  out.push(...images);
}

function listBlocks(list: HtmlElement, ctx: Context, out: Block[]): void {
  const ordered = list.tag === 'ol';
  let index = Number.parseInt(list.attrs.start ?? '1', 10) || 1;
  for (const item of list.children) {
    if (item.type !== 'element' || item.tag !== 'li') {
      blocksFrom([item], ctx, out);
      continue;
    }
    const markerText = listMarker(ordered, ctx.listDepth, index++);
    blocksFrom(
      item.children,
      {
        ...ctx,
        indent: ctx.indent + LIST_INDENT,
        listDepth: ctx.listDepth + 1,
        pending: {
          marker: { text: markerText, style: { ...ctx.style, bold: false, italic: false } },
        },
      },
      out,
    );
  }
}

/** A table nested in a cell: each row becomes one line of text, cells separated by ' | '. */
function flattenTable(table: HtmlElement, ctx: Context, out: Block[]): void {
  for (const row of tableRows(table)) {
    const cells = row.children.filter(
      (cell): cell is HtmlElement =>
        cell.type === 'element' && (cell.tag === 'td' || cell.tag === 'th'),
    );
    const text = normaliseText(cells.map((cell) => textContent(cell).trim()).join(' | '));
    if (text.trim()) out.push(paragraphBlock([{ text, style: ctx.style }], ctx));
  }
}

function tableRows(table: HtmlElement): Array<HtmlElement & { inHead: boolean }> {
  const rows: Array<HtmlElement & { inHead: boolean }> = [];
  const visit = (element: HtmlElement, inHead: boolean) => {
    for (const child of element.children) {
      if (child.type !== 'element') continue;
      if (child.tag === 'tr') rows.push({ ...child, inHead });
      else if (child.tag === 'thead' || child.tag === 'tbody' || child.tag === 'tfoot') {
        visit(child, inHead || child.tag === 'thead');
      }
    }
  };
  visit(table, false);
  return rows;
}

function tableBlock(table: HtmlElement, ctx: Context): Table {
  const cellStyle: TextStyle = { ...ctx.style, size: TABLE_SIZE };
  const rows: TableCell[][] = tableRows(table).map((row) =>
    row.children
      .filter(
        (cell): cell is HtmlElement =>
          cell.type === 'element' && (cell.tag === 'td' || cell.tag === 'th'),
      )
      .map((cell) => {
        const header = cell.tag === 'th' || row.inHead;
        const blocks: Block[] = [];
        blocksFrom(
          cell.children,
          {
            ...ctx,
            style: { ...cellStyle, bold: cellStyle.bold || header },
            indent: 0,
            listDepth: 0,
            inTable: true,
            pending: {},
          },
          blocks,
        );
        const paragraphs = blocks.flatMap((block) =>
          block.kind === 'paragraph' ? [block.paragraph] : [],
        );
        const span = (value: string | undefined) =>
          Math.min(63, Math.max(1, Number.parseInt(value ?? '1', 10) || 1));
        return {
          paragraphs,
          header,
          colspan: span(cell.attrs.colspan),
          rowspan: span(cell.attrs.rowspan),
        };
      }),
  );
  return { rows: rows.filter((row) => row.length > 0) };
}

/** Turns mammoth's HTML into layout blocks, in document order. */
function blocksFrom(nodes: HtmlNode[], ctx: Context, out: Block[]): void {
  let inline: HtmlNode[] = [];
  const flush = () => {
    flushInline(inline, ctx, out);
    inline = [];
  };
  for (const node of nodes) {
    if (isInline(node)) {
      inline.push(node);
      continue;
    }
    if (node.type !== 'element') continue;
    flush();
    const headingSize = HEADING_SIZES[node.tag];
    if (headingSize !== undefined) {
      const spans: Span[] = [];
      const images: Block[] = [];
      const style = { ...ctx.style, bold: true, size: ctx.inTable ? ctx.style.size : headingSize };
      inlineSpans(node.children, { ...ctx, style }, spans, images);
      if (spans.some((span) => span.text.trim() !== '') || ctx.pending.marker) {
        out.push(
          paragraphBlock(spans, ctx, {
            spaceBefore: ctx.inTable ? 2 : headingSize * 0.6,
            spaceAfter: ctx.inTable ? 0 : 4,
            keepWithNext: !ctx.inTable,
          }),
        );
      }
      out.push(...images);
    } else if (node.tag === 'p') {
      flushInline(node.children, ctx, out);
    } else if (node.tag === 'ul' || node.tag === 'ol') {
      listBlocks(node, ctx, out);
    } else if (node.tag === 'table') {
      if (ctx.inTable) flattenTable(node, ctx, out);
      else out.push({ kind: 'table', table: tableBlock(node, ctx) });
    } else {
      // div, blockquote, li outside a list, anything unknown: keep its content.
      blocksFrom(node.children, ctx, out);
    }
  }
  flush();
}

/** Embeds the pictures mammoth found; unusable ones are left for a text note instead. */
async function embedPictures(
  doc: PDFDocument,
  pictures: Map<string, { contentType: string; bytes: Uint8Array }>,
): Promise<Context['images']> {
  const images: Context['images'] = new Map();
  for (const [src, picture] of pictures) {
    const kind =
      picture.contentType === 'image/png'
        ? 'png'
        : /image\/jpe?g/.test(picture.contentType)
          ? 'jpeg'
          : null;
    let image: EmbeddedImage | null = null;
    if (kind) {
      try {
        image = await embedImage(doc, picture.bytes, kind);
      } catch (error) {
        if (!(error instanceof DocumentRejectedError)) throw error;
      }
    }
    images.set(src, { image, alt: '' });
  }
  return images;
}

export interface JsConversionResult {
  pdf: Uint8Array;
  pageCount: number;
  /** Characters that no available font could draw, shown as '?'. */
  replacedCharacters: number;
}

/**
 * Converts a DOCX (already inspected) to PDF in pure JavaScript. A failure nobody foresaw (a
 * document nested deeper than the stack, say) still ends in a sentence the applicant can act on;
 * the original error stays in `cause` for the logs.
 */
export async function docxToPdfJs(bytes: Uint8Array): Promise<JsConversionResult> {
  try {
    return await convert(bytes);
  } catch (error) {
    if (error instanceof DocumentRejectedError) throw error;
    throw new DocumentRejectedError(documentMessages.conversionFailed, { cause: error });
  }
}

async function convert(bytes: Uint8Array): Promise<JsConversionResult> {
  // The package is checked again here: mammoth's unzip has no size limits of its own.
  const parts = checkDocxPackage(bytes, isHeaderFooterSource);
  const { header, footer } = readHeadersAndFooters(parts);
  const decorations = [...header, ...footer].map(normaliseText);
  const pictures = new Map<string, { contentType: string; bytes: Uint8Array }>();
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      {
        styleMap: STYLE_MAP,
        externalFileAccess: false,
        convertImage: mammoth.images.imgElement(async (image) => {
          const src = `${IMAGE_PREFIX}${pictures.size}`;
          pictures.set(src, { contentType: image.contentType, bytes: await image.read() });
          return { src };
        }),
      },
    );
    html = result.value;
  } catch (error) {
    throw new DocumentRejectedError(documentMessages.docxDamaged, { cause: error });
  }

  const doc = await PDFDocument.create();
  const fonts = await DocumentFonts.create(doc);
  const images = await embedPictures(doc, pictures);
  const blocks: Block[] = [];
  blocksFrom(
    parseHtml(html),
    {
      style: { bold: false, italic: false, size: BODY_SIZE, script: 'normal' },
      indent: 0,
      listDepth: 0,
      inTable: false,
      pending: {},
      images,
    },
    blocks,
  );

  await fonts.prepare([
    ...allText(blocks),
    ...decorations.map((text) => ({ text, bold: false })),
    { text: '0123456789', bold: false },
  ]);
  const flow = new PdfFlow(doc, fonts);
  flow.blocks(blocks);
  flow.decorate(
    decorations.slice(0, header.length),
    decorations.slice(header.length),
    (text, page, pageCount) =>
      text.replaceAll(PAGE_FIELD, String(page)).replaceAll(PAGE_COUNT_FIELD, String(pageCount)),
  );
  return {
    pdf: await doc.save(),
    pageCount: flow.pages.length,
    replacedCharacters: fonts.replacedCharacters,
  };
}

function* paragraphText(paragraph: Paragraph): Generator<{ text: string; bold: boolean }> {
  if (paragraph.marker) yield { text: paragraph.marker.text, bold: paragraph.marker.style.bold };
  for (const span of paragraph.spans) yield { text: span.text, bold: span.style.bold };
}

function* allText(blocks: Block[]): Generator<{ text: string; bold: boolean }> {
  for (const block of blocks) {
    if (block.kind === 'paragraph') yield* paragraphText(block.paragraph);
    if (block.kind === 'table') {
      for (const row of block.table.rows) {
        for (const cell of row)
          for (const paragraph of cell.paragraphs) yield* paragraphText(paragraph);
      }
    }
  }
}
