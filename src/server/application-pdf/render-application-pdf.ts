// The application PDF (docs/design.md, "One model, four views"): the printable projection of the
// form, laid out with the documents library's flow layout and fonts, then the converted
// documents appended in the order the form names them, and an outline with one bookmark per
// form page and per document. Pure JavaScript: no browser runs on the server.
import { PDFDocument, PDFName, PDFString, rgb } from 'pdf-lib';
import {
  attachedDocuments,
  DOCUMENT_ATTACHED,
  type PrintableApplication,
  type PrintableEntry,
  type PrintableRow,
  printableText,
} from '../../shared/form/printable';
import { DocumentFonts, normaliseText } from '../pdf/fonts';
import type { Block, PageSetup, Paragraph, Span } from '../pdf/pdf-layout';
import { PdfFlow } from '../pdf/pdf-layout';
import { courseworkBlocks, courseworkTotalsBlocks } from './coursework-blocks';
import { paragraph, SIZE, span } from './pdf-blocks';
import { addOutline, type OutlineEntry } from './pdf-outline';

export interface ApplicationPdfCover {
  /** The university (tenant partner name). */
  institution: string;
  applicantName: string;
  email: string | null;
  submittedAt: Date | null;
  generatedAt: Date;
  /** The receipt given at submit; absent before submit. */
  receipt?: { number: string; submittedAt: Date; fingerprint: string } | null;
}

export interface ApplicationPdfInput {
  printable: PrintableApplication;
  /** The converted PDF of each attached document by answer key; missing or null: not available. */
  documents: ReadonlyMap<string, Uint8Array | null>;
  cover: ApplicationPdfCover;
}

export interface RenderedApplicationPdf {
  pdf: Uint8Array;
  pageCount: number;
  outline: OutlineEntry[];
  /** Answer keys of attached documents that could not be included (missing or unreadable). */
  missingDocuments: string[];
}

export const APPLICATION_PDF_TITLE = 'Transfer application';
export const NOT_ANSWERED_TEXT = 'Not answered';
export const MISSING_DOCUMENT_TEXT = `${DOCUMENT_ATTACHED}, but it could not be included in this PDF.`;

const PAGE: PageSetup = { width: 612, height: 792, margin: 54 };
const INDENT_STEP = 14;
const MARK_WIDTH = 22;

interface AppendedDocument {
  number: number;
  answerKey: string;
  label: string;
  fileName: string | null;
  pdf: PDFDocument | null;
}

const dateFormat = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  timeZone: 'UTC',
});

const timeFormat = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
  timeZone: 'UTC',
  timeZoneName: 'short',
});

export const CONFIRMATION_NUMBER_LABEL = 'Confirmation number';
export const SUBMITTED_LABEL = 'Submitted';
export const FINGERPRINT_LABEL = 'Fingerprint (SHA-256)';

/** The receipt as the applicant was given it: what a reader quotes on the phone and checks. */
function receiptBlocks(receipt: NonNullable<ApplicationPdfCover['receipt']>): Block[] {
  const line = (label: string, value: string, last = false) =>
    paragraph([span(`${label}: `, SIZE.label, true), span(value, SIZE.label)], 0, {
      spaceAfter: last ? 14 : 1,
    });
  return [
    line(CONFIRMATION_NUMBER_LABEL, receipt.number),
    line(
      SUBMITTED_LABEL,
      `${timeFormat.format(receipt.submittedAt)} (${receipt.submittedAt.toISOString()})`,
    ),
    line(FINGERPRINT_LABEL, receipt.fingerprint, true),
  ];
}

function coverBlocks(cover: ApplicationPdfCover): Block[] {
  const submitted = cover.submittedAt
    ? `Submitted ${dateFormat.format(cover.submittedAt)}`
    : 'Not submitted yet';
  return [
    paragraph([span(cover.institution, SIZE.section)], 0, { spaceAfter: 2 }),
    paragraph([span(APPLICATION_PDF_TITLE, SIZE.title, true)], 0, { spaceAfter: 4 }),
    paragraph(
      [span(cover.applicantName || 'Applicant', SIZE.section, true)],
      0,
      cover.email ? { spaceAfter: 1 } : { spaceAfter: 2 },
    ),
    ...(cover.email ? [paragraph([span(cover.email, SIZE.value)], 0, { spaceAfter: 2 })] : []),
    paragraph(
      [
        span(
          `${submitted}. Printed ${dateFormat.format(cover.generatedAt)}.`,
          SIZE.note,
          false,
          true,
        ),
      ],
      0,
      { spaceAfter: cover.receipt ? 6 : 18 },
    ),
    ...(cover.receipt ? receiptBlocks(cover.receipt) : []),
  ];
}

/** Lays out one form page's groups; document rows point to the appended copy. */
class PageWriter {
  readonly blocks: Block[] = [];

  constructor(
    private readonly documents: Map<string, AppendedDocument>,
    private readonly total: number,
  ) {}

  heading(text: string, size: number, indent: number, spaceBefore: number): void {
    this.blocks.push(
      paragraph([span(text, size, true)], indent, {
        spaceBefore,
        spaceAfter: 4,
        keepWithNext: true,
      }),
    );
  }

  note(text: string, indent: number): void {
    this.blocks.push(
      paragraph([span(text, SIZE.label, false, true)], indent, {
        spaceAfter: 4,
        keepWithNext: true,
      }),
    );
  }

  entries(entries: readonly PrintableEntry[], indent: number): void {
    for (const entry of entries) {
      switch (entry.kind) {
        case 'row':
          this.row(entry, indent);
          break;
        case 'block': {
          const inner = entry.title ? indent + INDENT_STEP : indent;
          if (entry.title) this.heading(entry.title, SIZE.section, indent, 6);
          if (entry.description) this.note(entry.description, inner);
          this.entries(entry.entries, inner);
          break;
        }
        case 'repeat':
          if (entry.title) this.heading(entry.title, SIZE.section, indent, 6);
          for (const instance of entry.instances) {
            this.heading(instance.label, SIZE.value, indent + INDENT_STEP, 4);
            this.entries(instance.entries, indent + 2 * INDENT_STEP);
          }
          break;
        case 'tabs':
          this.heading(`${entry.label}: ${entry.chosen.label}`, SIZE.section, indent, 6);
          this.entries(entry.entries, indent + INDENT_STEP);
          break;
      }
    }
  }

  private row(row: PrintableRow, indent: number): void {
    const value = row.value;
    if (value.kind === 'coursework' && row.answered) {
      this.blocks.push(
        paragraph([span(row.label, SIZE.label, true)], indent, {
          spaceAfter: 1,
          keepWithNext: true,
        }),
      );
      this.blocks.push(...courseworkBlocks(value, indent));
      return;
    }
    if (value.kind === 'checkbox') {
      this.blocks.push(
        paragraph([span(row.label, SIZE.value)], indent + MARK_WIDTH, {
          marker: span(value.mark, SIZE.value, true),
          spaceAfter: 5,
        }),
      );
      return;
    }
    this.blocks.push(
      paragraph([span(row.label, SIZE.label, true)], indent, { spaceAfter: 1, keepWithNext: true }),
    );
    this.blocks.push(paragraph(this.valueSpans(row), indent, { spaceAfter: 6 }));
  }

  private valueSpans(row: PrintableRow): Span[] {
    const value = row.value;
    if (value.kind === 'document' && value.attached) {
      const appended = this.documents.get(value.answerKey);
      if (!appended?.pdf) return [span(MISSING_DOCUMENT_TEXT, SIZE.value, false, true)];
      const name = appended.fileName ? `: ${appended.fileName}` : '';
      return [
        span(DOCUMENT_ATTACHED, SIZE.value, true),
        span(` (appended as document ${appended.number} of ${this.total}${name})`, SIZE.value),
      ];
    }
    if (!row.answered) return [span(NOT_ANSWERED_TEXT, SIZE.value, false, true)];
    return [span(printableText(value), SIZE.value)];
  }
}

function documentTitle(document: AppendedDocument): string {
  const name = document.fileName ? ` (${document.fileName})` : '';
  return `Document ${document.number}: ${document.label}${name}`;
}

/** The stored conversion, or null when it no longer parses or has no pages: left out, never fatal. */
async function readablePdf(bytes: Uint8Array): Promise<PDFDocument | null> {
  try {
    const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
    return pdf.getPageCount() > 0 ? pdf : null;
  } catch {
    return null;
  }
}

async function loadDocuments(input: ApplicationPdfInput): Promise<AppendedDocument[]> {
  const attached = attachedDocuments(input.printable);
  return Promise.all(
    attached.map(async (document, index) => {
      const bytes = input.documents.get(document.answerKey) ?? null;
      const pdf = bytes ? await readablePdf(bytes) : null;
      return {
        number: index + 1,
        answerKey: document.answerKey,
        label: document.row.label,
        fileName: document.fileName,
        pdf,
      };
    }),
  );
}

function* paragraphTexts(paragraph: Paragraph): Generator<{ text: string; bold: boolean }> {
  for (const part of paragraph.spans) yield { text: part.text, bold: part.style.bold };
  if (paragraph.marker) yield { text: paragraph.marker.text, bold: paragraph.marker.style.bold };
}

function* textsOf(blocks: Block[]): Generator<{ text: string; bold: boolean }> {
  for (const block of blocks) {
    if (block.kind === 'paragraph') yield* paragraphTexts(block.paragraph);
    if (block.kind === 'table')
      for (const row of block.table.rows)
        for (const tableCell of row)
          for (const inner of tableCell.paragraphs) yield* paragraphTexts(inner);
  }
}

/** A small grey line at the top of each appended page, so a printout says whose document it is. */
function stampDocumentPages(
  fonts: DocumentFonts,
  doc: PDFDocument,
  firstPage: number,
  count: number,
  text: string,
): void {
  for (let index = firstPage; index < firstPage + count; index++) {
    const page = doc.getPage(index);
    // Rotated pages would need the text turned with them; their own content speaks for them.
    if (page.getRotation().angle % 360 !== 0) continue;
    const box = page.getCropBox();
    let x = box.x + 18;
    const y = box.y + box.height - 14;
    for (const run of fonts.runs(text, { bold: false, italic: false })) {
      page.drawText(run.text, {
        x,
        y,
        size: SIZE.note,
        font: run.font,
        color: rgb(0.35, 0.35, 0.35),
      });
      x += run.font.widthOfTextAtSize(run.text, SIZE.note);
    }
  }
}

/** Renders the application PDF. Deterministic for the same input and dates. */
export async function renderApplicationPdf(
  input: ApplicationPdfInput,
): Promise<RenderedApplicationPdf> {
  const appended = await loadDocuments(input);
  const byKey = new Map(appended.map((document) => [document.answerKey, document]));
  const doc = await PDFDocument.create();
  const fonts = await DocumentFonts.create(doc);
  const { cover } = input;

  const pages = input.printable.pages.map((page) => {
    const writer = new PageWriter(byKey, appended.length);
    writer.heading(page.title, SIZE.page, 0, 0);
    if (page.groups.length === 0) writer.note('Nothing was answered on this page.', 0);
    for (const group of page.groups) {
      if (group.title) writer.heading(group.title, SIZE.group, 0, 10);
      if (group.description) writer.note(group.description, 0);
      writer.entries(group.entries, 0);
    }
    return { title: page.title, blocks: writer.blocks };
  });
  const first = [...coverBlocks(cover), ...courseworkTotalsBlocks(input.printable.coursework)];
  const stamps = appended.map((document) => normaliseText(documentTitle(document)));
  const footer = normaliseText(
    `${cover.applicantName || 'Applicant'} · ${APPLICATION_PDF_TITLE} · Page {page} of {pages}`,
  );
  await fonts.prepare([
    ...textsOf(first),
    ...pages.flatMap((page) => [...textsOf(page.blocks)]),
    ...stamps.map((text) => ({ text, bold: false })),
    { text: footer, bold: false },
  ]);

  const flow = new PdfFlow(doc, fonts, PAGE);
  const outline: OutlineEntry[] = [];
  flow.blocks(first);
  for (const [index, page] of pages.entries()) {
    // The first form page follows the cover lines; every other starts a new sheet.
    if (index > 0) flow.blocks([{ kind: 'pageBreak' }]);
    outline.push({ title: page.title, pageIndex: flow.pages.length - 1 });
    flow.blocks(page.blocks);
  }
  const formPages = flow.pages.length;
  const documentPages = appended.reduce(
    (sum, document) => sum + (document.pdf?.getPageCount() ?? 0),
    0,
  );
  const total = formPages + documentPages;
  flow.decorate([], [footer], (text, page) =>
    text.replaceAll('{page}', String(page)).replaceAll('{pages}', String(total)),
  );

  for (const [index, document] of appended.entries()) {
    const source = document.pdf;
    if (!source) continue;
    const firstPage = doc.getPageCount();
    const copied = await doc.copyPages(source, source.getPageIndices());
    for (const page of copied) doc.addPage(page);
    stampDocumentPages(fonts, doc, firstPage, copied.length, stamps[index] ?? '');
    outline.push({ title: documentTitle(document), pageIndex: firstPage });
  }
  addOutline(doc, outline);

  const title = `${APPLICATION_PDF_TITLE}: ${cover.applicantName || 'Applicant'}`;
  doc.setTitle(title, { showInWindowTitleBar: true });
  doc.setSubject(`${cover.institution}, ${APPLICATION_PDF_TITLE.toLowerCase()}`);
  doc.setAuthor(cover.applicantName || 'Applicant');
  doc.setCreator(cover.institution);
  doc.setProducer('Transfer application portal');
  doc.setCreationDate(cover.generatedAt);
  doc.setModificationDate(cover.generatedAt);
  doc.catalog.set(PDFName.of('Lang'), PDFString.of('en-US'));

  const missingDocuments = appended
    .filter((document) => !document.pdf)
    .map((document) => document.answerKey);
  return { pdf: await doc.save(), pageCount: doc.getPageCount(), outline, missingDocuments };
}
