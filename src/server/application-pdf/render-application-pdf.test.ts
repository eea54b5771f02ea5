import { describe, expect, it } from 'vitest';
import { applicationModel } from '../../shared/application/application-model';
import { DOCUMENT_ATTACHED, printableApplication } from '../../shared/form/printable';
import { validApplicationAnswers } from '../../shared/test/application-fixtures';
import { fixtureModel } from '../../shared/test/fixture-model';
import { extractPdfPages, extractPdfText } from '../test/pdf-text';
import { makePdf } from '../test/sample-files';
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
