import { describe, expect, it } from 'vitest';
import { applicationModel } from '../../shared/application/application-model';
import { DOCUMENT_ATTACHED, printableApplication } from '../../shared/form/printable';
import { validApplicationAnswers } from '../../shared/test/application-fixtures';
import { fixtureModel } from '../../shared/test/fixture-model';
import { extractPdfPages, extractPdfText } from '../test/pdf-text';
import { makePdf } from '../test/sample-files';
import { REPEAT_NOTE, TRANSFER_TOTALS_HEADING } from './coursework-blocks';
import {
  type ApplicationPdfCover,
  MISSING_DOCUMENT_TEXT,
  NOT_ANSWERED_TEXT,
  renderApplicationPdf,
} from './render-application-pdf';
import { applicationPdfFileName } from './send-application-pdf';

const cover: ApplicationPdfCover = {
  institution: 'Northfield State University',
  applicantName: 'Zoë Nguyễn',
  email: 'zoe@example.edu',
  submittedAt: new Date('2026-11-20T15:00:00Z'),
  generatedAt: new Date('2026-11-22T09:00:00Z'),
};

describe('the application PDF', () => {
  it('prints text beyond Latin-1, unanswered questions and the cover lines', async () => {
    const printable = printableApplication(applicationModel, {
      answers: { ...validApplicationAnswers(), first_name: 'Zoë', last_name: 'Nguyễn 李' },
    });
    const rendered = await renderApplicationPdf({ printable, documents: new Map(), cover });
    const text = await extractPdfText(rendered.pdf);
    expect(text).toContain('Nguyễn 李');
    expect(text).toContain('Zoë');
    expect(text).toContain(NOT_ANSWERED_TEXT);
    expect(text).toContain('Submitted November 20, 2026. Printed November 22, 2026.');
    expect(text).toContain(`Page 1 of ${rendered.pageCount}`);
    expect(rendered.outline.map((entry) => entry.title)).toEqual([
      'About You',
      'Your Academics',
      'Final Steps',
    ]);
    expect(rendered.missingDocuments).toEqual([]);
  });

  it("prints each college's coursework term by term, the repeats, and the totals on the cover", async () => {
    const course = (subject: string, number: string, units: string, grade: string) => ({
      subject,
      number,
      title: `${subject} course`,
      units,
      grade,
    });
    const coursework = JSON.stringify({
      system: 'quarter',
      terms: [
        {
          season: 'fall',
          year: 2023,
          status: 'completed',
          courses: [course('MATH', '1A', '6', 'D'), course('ENGL', '1', '3', 'A')],
        },
        {
          season: 'winter',
          year: 2024,
          status: 'completed',
          courses: [course('MATH', '1A', '6', 'B'), course('', '', '', '')],
        },
        {
          season: 'spring',
          year: 2024,
          status: 'in_progress',
          courses: [course('CHEM', '1', '3', '')],
        },
      ],
    });
    const printable = printableApplication(applicationModel, {
      answers: { ...validApplicationAnswers(), college_coursework: coursework },
    });
    const rendered = await renderApplicationPdf({ printable, documents: new Map(), cover });
    const text = (await extractPdfText(rendered.pdf)).replace(/\s+/g, ' ');
    // Quarter units x 2/3: MATH 1A counts once (B, 4 semester units), ENGL 1 (A, 2): 20/6 = 3.33.
    expect(text).toContain(
      `${TRANSFER_TOTALS_HEADING} Transfer GPA 3.33 · Transferable units 6.00 · In progress 2.00`,
    );
    expect(text).toContain('Fall 2023 (completed)');
    expect(text).toContain('Spring 2024 (in progress)');
    expect(text).toContain(`D (${REPEAT_NOTE})`);
    expect(text).toContain('Quarter units');
    expect(text).toContain('College GPA 3.33');
  });

  it('keeps a bookmark for a page with nothing answered', async () => {
    const printable = printableApplication(fixtureModel, { answers: { first_name: 'Ana' } });
    const rendered = await renderApplicationPdf({ printable, documents: new Map(), cover });
    const pages = await extractPdfPages(rendered.pdf);
    expect(rendered.outline).toEqual([
      { title: 'About You', pageIndex: 0 },
      { title: 'Your Academics', pageIndex: 1 },
    ]);
    expect(pages[1]).toContain('Nothing was answered on this page.');
  });

  it('says so when a document cannot be included, and appends the others', async () => {
    const printable = printableApplication(fixtureModel, {
      answers: { statement_doc: 'ANSWERED', first_name: 'Ana' },
      tabs: { statement_tabs: 'upload' },
      documents: { statement_doc: { file_name: 'essay.pdf' } },
    });
    for (const stored of [null, new TextEncoder().encode('%PDF-1.7 broken')]) {
      const rendered = await renderApplicationPdf({
        printable,
        documents: new Map([['statement_doc', stored]]),
        cover,
      });
      const text = await extractPdfText(rendered.pdf);
      expect(text).toContain(MISSING_DOCUMENT_TEXT);
      expect(rendered.missingDocuments).toEqual(['statement_doc']);
      expect(rendered.outline.map((entry) => entry.title)).toEqual(['About You', 'Your Academics']);
    }

    const included = await renderApplicationPdf({
      printable,
      documents: new Map([['statement_doc', await makePdf([['An essay on film']])]]),
      cover,
    });
    const pages = await extractPdfPages(included.pdf);
    expect(pages.at(-1)).toContain('An essay on film');
    expect(pages.at(-1)).toContain('Document 1: Statement document (essay.pdf)');
    expect(pages.join('\n')).toContain(`${DOCUMENT_ATTACHED} (appended as document 1 of 1`);
    expect(included.outline.at(-1)).toEqual({
      title: 'Document 1: Statement document (essay.pdf)',
      pageIndex: pages.length - 1,
    });
  });

  it('names the download after the applicant in plain ASCII', () => {
    expect(applicationPdfFileName('Zoë Nguyễn')).toBe('transfer-application-Zoe-Nguyen.pdf');
    expect(applicationPdfFileName('李')).toBe('transfer-application.pdf');
    expect(applicationPdfFileName('')).toBe('transfer-application.pdf');
    expect(applicationPdfFileName('../"evil"\r\n')).toBe('transfer-application-evil.pdf');
  });
});
