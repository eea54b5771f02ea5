import type { CourseworkSubtotals } from '../../shared/coursework/coursework-totals';
import type { PrintableCoursework } from '../../shared/form/printable';
import type { Block, TableCell } from '../pdf/pdf-layout';
import { paragraph, SIZE, span } from './pdf-blocks';

// The application PDF's coursework: a table per term with its repeats, the college's subtotals,
// and the application's totals on the cover.

export const TRANSFER_TOTALS_HEADING = 'Transfer GPA and units';
export const REPEAT_NOTE = 'repeat, not counted';

const TERM_STATUS_TEXT = {
  completed: 'completed',
  in_progress: 'in progress',
  planned: 'planned',
} as const;

/** `Transfer GPA 3.45 · Transferable units 60.00 · In progress 12.00`. */
export function totalsLine(totals: CourseworkSubtotals, gpaLabel = 'Transfer GPA'): string {
  return [
    `${gpaLabel} ${totals.gpa ?? 'none (no graded units)'}`,
    `Transferable units ${totals.transferableUnits}`,
    `In progress ${totals.inProgressUnits}`,
  ].join(' · ');
}

/** The totals computed from the coursework: on the cover, where a reader looks first. */
export function courseworkTotalsBlocks(totals: CourseworkSubtotals | null): Block[] {
  if (!totals) return [];
  return [
    paragraph([span(TRANSFER_TOTALS_HEADING, SIZE.label, true)], 0, { spaceAfter: 1 }),
    paragraph([span(totalsLine(totals), SIZE.label)], 0, { spaceAfter: 14 }),
  ];
}

const cell = (text: string, header = false): TableCell => ({
  paragraphs: [
    {
      spans: [span(text, SIZE.label, header)],
      indent: 0,
      spaceBefore: 0,
      spaceAfter: 0,
    },
  ],
  header,
  colspan: 1,
  rowspan: 1,
});

/** A college's coursework: a table per term, then the college's subtotals. */
export function courseworkBlocks(value: PrintableCoursework, indent: number): Block[] {
  const blocks: Block[] = [];
  const system = value.system === 'quarter' ? 'Quarter units' : 'Semester units';
  blocks.push(paragraph([span(system, SIZE.label, false, true)], indent, { spaceAfter: 4 }));
  for (const term of value.terms) {
    blocks.push(
      paragraph(
        [span(`${term.name} (${TERM_STATUS_TEXT[term.status]})`, SIZE.label, true)],
        indent,
        {
          spaceBefore: 2,
          spaceAfter: 2,
          keepWithNext: true,
        },
      ),
    );
    if (term.courses.length === 0) {
      blocks.push(paragraph([span('No courses entered.', SIZE.label, false, true)], indent));
      continue;
    }
    blocks.push({
      kind: 'table',
      table: {
        rows: [
          ['Subject', 'Number', 'Title', 'Units', 'Grade'].map((text) => cell(text, true)),
          ...term.courses.map((course) => [
            cell(course.subject),
            cell(course.number),
            cell(course.title),
            cell(course.units),
            cell(course.repeat ? `${course.grade} (${REPEAT_NOTE})` : course.grade),
          ]),
        ],
      },
    });
  }
  if (value.subtotals)
    blocks.push(
      paragraph([span(totalsLine(value.subtotals, 'College GPA'), SIZE.label, true)], indent, {
        spaceBefore: 4,
        spaceAfter: 6,
      }),
    );
  return blocks;
}
