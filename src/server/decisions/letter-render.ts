import type Token from 'markdown-it/lib/token.mjs';
import { PDFDocument, PDFName, PDFString } from 'pdf-lib';
import { DocumentFonts, normaliseText } from '../pdf/fonts';
import { type Block, LETTER_PAGE, type Paragraph, PdfFlow, type Span } from '../pdf/pdf-layout';

import { letterMarkdown } from './letter-html';

/*
 * A released letter as a PDF, from the same Markdown tokens as its HTML (letter-html.ts). pdf-lib
 * and the fonts load with the first letter downloaded, not with the server.
 */

const SIZE = { title: 16, body: 11, h1: 16, h2: 14, h3: 12 } as const;
const LIST_INDENT = 18;

const style = (size: number, bold: boolean, italic = false) =>
  ({ size, bold, italic, script: 'normal' }) as const;

function spansOf(inline: Token, size: number, headingBold: boolean): Span[] {
  const spans: Span[] = [];
  let bold = 0;
  let italic = 0;
  const add = (text: string) => {
    if (text === '') return;
    spans.push({
      text: normaliseText(text),
      style: style(size, headingBold || bold > 0, italic > 0),
    });
  };
  for (const child of inline.children ?? []) {
    switch (child.type) {
      case 'strong_open':
        bold += 1;
        break;
      case 'strong_close':
        bold -= 1;
        break;
      case 'em_open':
        italic += 1;
        break;
      case 'em_close':
        italic -= 1;
        break;
      case 'softbreak':
        add(' ');
        break;
      case 'hardbreak':
        add('\n');
        break;
      case 'text':
      case 'code_inline':
        add(child.content);
        break;
      case 'image':
        add(child.content);
        break;
      default:
        // Links print their text (a child token); nothing else inline carries words.
        break;
    }
  }
  return spans;
}

/** The letter's Markdown as the PDF layout's blocks, under the university's name. */
export function letterBlocks(letter: string, institution: string): Block[] {
  const paragraph = (value: Paragraph): Block => ({ kind: 'paragraph', paragraph: value });
  const blocks: Block[] = [
    paragraph({
      spans: [{ text: normaliseText(institution), style: style(SIZE.title, true) }],
      indent: 0,
      spaceBefore: 0,
      spaceAfter: 18,
    }),
  ];
  const lists: { ordered: boolean; next: number }[] = [];
  let heading: number | null = null;
  let marker: string | null = null;
  for (const token of letterMarkdown.parse(letter, {})) {
    switch (token.type) {
      case 'heading_open':
        heading = token.tag === 'h1' ? SIZE.h1 : token.tag === 'h2' ? SIZE.h2 : SIZE.h3;
        break;
      case 'heading_close':
        heading = null;
        break;
      case 'bullet_list_open':
        lists.push({ ordered: false, next: 1 });
        break;
      case 'ordered_list_open':
        lists.push({ ordered: true, next: Number(token.attrGet('start') ?? 1) });
        break;
      case 'bullet_list_close':
      case 'ordered_list_close':
        lists.pop();
        break;
      case 'list_item_open': {
        const list = lists.at(-1);
        marker = list?.ordered ? `${list.next++}.` : '•';
        break;
      }
      case 'inline':
      case 'code_block':
      case 'fence': {
        const size = heading ?? SIZE.body;
        const spans =
          token.type === 'inline'
            ? spansOf(token, size, heading !== null)
            : [{ text: normaliseText(token.content.trimEnd()), style: style(size, false) }];
        if (spans.length === 0) break;
        const inList = lists.length > 0;
        blocks.push(
          paragraph({
            spans,
            indent: lists.length * LIST_INDENT,
            ...(marker ? { marker: { text: marker, style: style(size, false) } } : {}),
            spaceBefore: heading !== null ? 10 : 0,
            spaceAfter: inList ? 3 : heading !== null ? 6 : 9,
            keepWithNext: heading !== null,
          }),
        );
        marker = null;
        break;
      }
      default:
        break;
    }
  }
  return blocks;
}

function* textsOf(blocks: Block[]): Generator<{ text: string; bold: boolean }> {
  for (const block of blocks) {
    if (block.kind !== 'paragraph') continue;
    for (const span of block.paragraph.spans) yield { text: span.text, bold: span.style.bold };
  }
}

/** The letter as a PDF: the institution's name on top, then the letter. */
export async function letterPdf(
  letter: string,
  meta: { institution: string; releasedAt: Date },
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const fonts = await DocumentFonts.create(doc);
  const blocks = letterBlocks(letter, meta.institution);
  await fonts.prepare(textsOf(blocks));
  new PdfFlow(doc, fonts, LETTER_PAGE).blocks(blocks);
  doc.setTitle(`${meta.institution}: decision letter`, { showInWindowTitleBar: true });
  doc.setCreator(meta.institution);
  doc.setProducer('Transfer application portal');
  // Dated by the release, so the same letter is the same file whenever it is downloaded.
  doc.setCreationDate(meta.releasedAt);
  doc.setModificationDate(meta.releasedAt);
  doc.catalog.set(PDFName.of('Lang'), PDFString.of('en-US'));
  return doc.save();
}
