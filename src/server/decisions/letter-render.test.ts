import { describe, expect, it } from 'vitest';
import { DEFAULT_DECISION_CODES } from '../../shared/decisions/decision-config';
import { fillLetter, letterValues, replyDeadlineAt } from '../../shared/decisions/letter';
import { extractPdfText, extractPdfTextItems } from '../test/pdf-text';
import { letterHtml } from './letter-html';
import { letterBlocks, letterPdf } from './letter-render';

const admitLetter = DEFAULT_DECISION_CODES[0]?.letter ?? '';

function filled(firstName: string): string {
  return fillLetter(
    admitLetter,
    letterValues({
      answers: {
        first_name: firstName,
        applied_major_desc: 'Psychology',
        entry_term_desc: 'Fall 2026',
      },
      decisionLabel: 'Admit',
      confirmationNumber: 'NSU-FA26-000123',
      replyDeadline: replyDeadlineAt('2027-05-01', 'America/New_York'),
      timeZone: 'America/New_York',
      partnerName: 'Northfield State University',
    }),
  );
}

describe('decision letters rendered', () => {
  it('renders the Markdown to HTML with what the applicant typed as text', () => {
    const html = letterHtml(filled('<img src=x onerror=alert(1)> [x](javascript:alert(1)) _y_'));
    expect(html).toContain(
      '<h2>Congratulations, &lt;img src=x onerror=alert(1)&gt; [x](javascript:alert(1)) _y_!</h2>',
    );
    expect(html).toContain('<strong>Psychology</strong>');
    expect(html).toContain('<strong>May 1, 2027 at 11:59 PM EDT</strong>');
  });

  it('marks the reply deadline with its moment, in every place the letter says it', () => {
    const at = replyDeadlineAt('2027-05-01', 'America/New_York');
    const html = letterHtml(`${filled('Ana')}\n\nAgain: **May 1, 2027 at 11:59 PM EDT**.`, {
      at,
      text: 'May 1, 2027 at 11:59 PM EDT',
    });
    const marked = '<time datetime="2027-05-02T03:59:59.999Z">May 1, 2027 at 11:59 PM EDT</time>';
    expect(html.split(marked)).toHaveLength(3);
    expect(html.replaceAll(marked, '')).not.toContain('11:59 PM');
    expect(html).not.toMatch(/<img|<a |<em>/);
  });

  it('passes no raw HTML from a template either', () => {
    expect(letterHtml('Hello <b onclick="x()">there</b>')).toBe(
      '<p>Hello &lt;b onclick=&quot;x()&quot;&gt;there&lt;/b&gt;</p>\n',
    );
  });

  it('lays out headings, paragraphs, bold and italic, and lists', () => {
    const blocks = letterBlocks(
      '# Title\n\nSome **bold** and *italic*.\n\n1. First\n2. Second\n\n- A\n- B',
      'NSU',
    );
    const paragraphs = blocks.flatMap((block) =>
      block.kind === 'paragraph' ? [block.paragraph] : [],
    );
    expect(paragraphs.map((p) => p.spans.map((span) => span.text).join(''))).toEqual([
      'NSU',
      'Title',
      'Some bold and italic.',
      'First',
      'Second',
      'A',
      'B',
    ]);
    expect(paragraphs[1]?.spans[0]?.style).toMatchObject({ bold: true, size: 16 });
    expect(
      paragraphs[2]?.spans.map((span) => [span.text, span.style.bold, span.style.italic]),
    ).toEqual([
      ['Some ', false, false],
      ['bold', true, false],
      [' and ', false, false],
      ['italic', false, true],
      ['.', false, false],
    ]);
    expect(paragraphs.slice(3).map((p) => p.marker?.text)).toEqual(['1.', '2.', '•', '•']);
  });

  it('makes a PDF with the university on top and the letter below', async () => {
    const pdf = await letterPdf(filled('Zoë **Ann**'), {
      institution: 'Northfield State University',
      releasedAt: new Date('2027-03-15T17:00:00Z'),
    });
    const text = (await extractPdfText(pdf)).replace(/\s+/g, ' ');
    expect(text).toContain('Northfield State University');
    expect(text).toContain('Congratulations, Zoë **Ann**!');
    expect(text).toContain('Confirmation number: NSU-FA26-000123');
    const items = await extractPdfTextItems(pdf);
    expect(items[0]?.text).toBe('Northfield State University');
  });
});
