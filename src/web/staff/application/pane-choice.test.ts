import { describe, expect, it } from 'vitest';
import { applicationModel } from '../../../shared/application/application-model';
import { printableApplication } from '../../../shared/form/printable';
import { validApplicationAnswers } from '../../../shared/test/application-fixtures';
import { APPLICATION_PDF_CHOICE, paneChoiceFor, paneDocuments } from './pane-choice';

describe('the document pane choice', () => {
  const documents = [
    { answerKey: 'hs_transcript', label: 'High school transcript' },
    { answerKey: 'resume', label: 'Resume' },
  ];

  it('keeps the remembered document when this application has it', () => {
    expect(paneChoiceFor('resume', documents)).toBe('resume');
  });

  it('falls back to the application PDF otherwise', () => {
    expect(paneChoiceFor('college_transcript', documents)).toBe(APPLICATION_PDF_CHOICE);
    expect(paneChoiceFor(APPLICATION_PDF_CHOICE, documents)).toBe(APPLICATION_PDF_CHOICE);
    expect(paneChoiceFor('resume', [])).toBe(APPLICATION_PDF_CHOICE);
  });

  it('lists the attached documents with their questions’ labels', () => {
    const application = printableApplication(applicationModel, {
      answers: validApplicationAnswers(),
      documents: { hs_transcript: { file_name: 't.pdf' }, other: { status: 'FAILED' } },
    });
    const listed = paneDocuments(application);
    expect(listed.map((document) => document.answerKey)).toEqual(['hs_transcript']);
    expect(listed[0]?.label).toBeTruthy();
  });
});
