import { normaliseText } from '../pdf/fonts';
import type { Block, Paragraph, Span } from '../pdf/pdf-layout';

/** The application PDF's type sizes, in points. */
export const SIZE = {
  title: 18,
  page: 16,
  group: 13,
  section: 11,
  label: 9.5,
  value: 10.5,
  note: 8,
};

export const span = (text: string, size: number, bold = false, italic = false): Span => ({
  text: normaliseText(text),
  style: { bold, italic, size, script: 'normal' },
});

export function paragraph(spans: Span[], indent: number, options: Partial<Paragraph> = {}): Block {
  return {
    kind: 'paragraph',
    paragraph: { spans, indent, spaceBefore: 0, spaceAfter: 0, ...options },
  };
}
