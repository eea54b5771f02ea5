import { PDFDocument, PDFName, PDFString } from 'pdf-lib';
import { ESTIMATE_NOTICE } from '../../shared/credit/credit-api';
import {
  CREDIT_OUTCOME_LABELS,
  type CreditCourse,
  type CreditEvaluation,
} from '../../shared/credit/credit-evaluation';
import { REQUIREMENT_STATUS_LABELS } from '../../shared/credit/credit-requirements';
import { DocumentFonts, normaliseText } from '../pdf/fonts';
import {
  type Block,
  LETTER_PAGE,
  type Paragraph,
  PdfFlow,
  type TableCell,
} from '../pdf/pdf-layout';

/*
 * The transfer credit estimate as a PDF: the institution, the applicant and the release date,
 * the notice that it is an estimate, each college's courses and how they transfer, the totals and
 * the requirements. pdf-lib and the fonts load with the first estimate downloaded (see the
 * routes), not with the server.
 */

export const ESTIMATE_TITLE = 'Transfer credit estimate';

const SIZE = { title: 16, heading: 13, body: 10.5, table: 9 } as const;

const style = (size: number, bold: boolean) =>
  ({ size, bold, italic: false, script: 'normal' }) as const;

function paragraph(
  text: string,
  size: number,
  bold = false,
  space: Partial<Pick<Paragraph, 'spaceBefore' | 'spaceAfter' | 'keepWithNext'>> = {},
): Block {
  return {
    kind: 'paragraph',
    paragraph: {
      spans: [{ text: normaliseText(text), style: style(size, bold) }],
      indent: 0,
      spaceBefore: space.spaceBefore ?? 0,
      spaceAfter: space.spaceAfter ?? 6,
      keepWithNext: space.keepWithNext ?? false,
    },
  };
}

const heading = (text: string): Block =>
  paragraph(text, SIZE.heading, true, { spaceBefore: 12, spaceAfter: 6, keepWithNext: true });

const cell = (text: string, header = false): TableCell => ({
  paragraphs: [
    {
      spans: [{ text: normaliseText(text), style: style(SIZE.table, header) }],
      indent: 0,
      spaceBefore: 0,
      spaceAfter: 0,
    },
  ],
  header,
  colspan: 1,
  rowspan: 1,
});

const table = (header: string[], rows: string[][]): Block => ({
  kind: 'table',
  table: {
    rows: [header.map((text) => cell(text, true)), ...rows.map((row) => row.map((t) => cell(t)))],
  },
});

const units = (value: number) => (Math.round(value * 100) / 100).toFixed(2);

/** How a course transfers, in the applicant's words: `MATH 150: Transfers`, `Needs review`. */
export function howItTransfers(course: CreditCourse): string {
  const outcome = CREDIT_OUTCOME_LABELS[course.outcome];
  const { kind, local_course: local } = course.mapping;
  const mapping =
    kind === 'course'
      ? local
      : kind === 'elective'
        ? `Elective${local ? ` ${local}` : ''}`
        : kind === 'no_credit'
          ? 'No credit'
          : 'Needs review';
  return mapping === outcome || mapping === '' ? outcome : `${mapping}: ${outcome}`;
}

export interface EstimateMeta {
  institution: string;
  applicantName: string;
  releasedAt: Date;
}

function formatDate(date: Date): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

/** The estimate as the PDF layout's blocks. */
export function estimateBlocks(evaluation: CreditEvaluation, meta: EstimateMeta): Block[] {
  const blocks: Block[] = [
    paragraph(meta.institution, SIZE.title, true, { spaceAfter: 4 }),
    paragraph(ESTIMATE_TITLE, SIZE.heading, true, { spaceAfter: 8 }),
    paragraph(`Applicant: ${meta.applicantName || 'not given'}`, SIZE.body),
    paragraph(`Released: ${formatDate(meta.releasedAt)}`, SIZE.body, false, { spaceAfter: 10 }),
    paragraph(ESTIMATE_NOTICE, SIZE.heading, true, { spaceAfter: 4 }),
    paragraph(
      'The credit you receive is decided when your official transcripts are evaluated after admission. Courses in progress count only when completed with a transferable grade.',
      SIZE.body,
      false,
      { spaceAfter: 8 },
    ),
  ];
  for (const college of evaluation.colleges) {
    const courses = evaluation.courses.filter((course) => course.grid_key === college.grid_key);
    blocks.push(heading(college.name || 'College'));
    if (courses.length === 0) {
      blocks.push(paragraph('No courses entered.', SIZE.body));
      continue;
    }
    blocks.push(
      table(
        ['Term', 'Course', 'Title', 'Units', 'Grade', 'How it transfers', 'Local units'],
        courses.map((course) => [
          course.term,
          `${course.subject} ${course.number}`.trim(),
          course.title,
          units(course.effective_units),
          course.effective_grade || (course.term_status === 'completed' ? '' : 'in progress'),
          course.repeat_excluded ? `${howItTransfers(course)} (repeat)` : howItTransfers(course),
          units(course.credit_units),
        ]),
      ),
    );
  }
  const totals = evaluation.totals;
  blocks.push(heading('Totals'));
  blocks.push(
    table(
      ['Transfer GPA', 'Transferable units', 'Local credit units', 'Pending (in progress)'],
      [
        [
          totals.transfer_gpa ?? 'none',
          totals.transfer_units,
          totals.credit_units,
          totals.pending_credit_units,
        ],
      ],
    ),
  );
  const requirements = evaluation.requirements.filter((entry) => entry.show_to_applicant);
  if (requirements.length > 0) {
    blocks.push(heading('Requirements'));
    blocks.push(
      table(
        ['Requirement', 'Status', 'Why'],
        requirements.map((entry) => [
          entry.label,
          REQUIREMENT_STATUS_LABELS[entry.status],
          entry.reason,
        ]),
      ),
    );
  }
  blocks.push(paragraph(ESTIMATE_NOTICE, SIZE.body, true, { spaceBefore: 12 }));
  return blocks;
}

function* textsOf(blocks: Block[]): Generator<{ text: string; bold: boolean }> {
  const ofParagraph = function* (paragraph: Paragraph) {
    for (const span of paragraph.spans) yield { text: span.text, bold: span.style.bold };
  };
  for (const block of blocks) {
    if (block.kind === 'paragraph') yield* ofParagraph(block.paragraph);
    if (block.kind === 'table')
      for (const row of block.table.rows)
        for (const one of row) for (const entry of one.paragraphs) yield* ofParagraph(entry);
  }
}

/** The estimate as a PDF, dated by its release so the same estimate is the same file. */
export async function estimatePdf(
  evaluation: CreditEvaluation,
  meta: EstimateMeta,
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const fonts = await DocumentFonts.create(doc);
  const blocks = estimateBlocks(evaluation, meta);
  await fonts.prepare(textsOf(blocks));
  new PdfFlow(doc, fonts, LETTER_PAGE).blocks(blocks);
  doc.setTitle(`${meta.institution}: ${ESTIMATE_TITLE.toLowerCase()}`, {
    showInWindowTitleBar: true,
  });
  doc.setCreator(meta.institution);
  doc.setProducer('Transfer application portal');
  doc.setCreationDate(meta.releasedAt);
  doc.setModificationDate(meta.releasedAt);
  doc.catalog.set(PDFName.of('Lang'), PDFString.of('en-US'));
  return doc.save();
}
