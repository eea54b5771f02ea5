import { describe, expect, it } from 'vitest';
import { applicationModel } from '../../../shared/application/application-model';
import type { CourseworkTotals } from '../../../shared/coursework/coursework-totals';
import { printableApplication } from '../../../shared/form/printable';
import type { Checklist, ChecklistItem } from '../../../shared/staff/application-api';
import { validApplicationAnswers } from '../../../shared/test/application-fixtures';
import { checklistSummary, collegeText, readingSummary } from './reading-summary';

const item = (label: string, state: ChecklistItem['state']): ChecklistItem => ({
  key: `tenant:${label.toLowerCase().replace(/\W+/g, '-')}`,
  kind: 'tenant',
  label,
  answer_key: null,
  state,
  set_by: null,
  set_at: null,
});

const checklist = (items: ChecklistItem[]): Checklist => ({
  items,
  missing: items.filter((entry) => entry.state === 'awaiting').length,
});

const subtotals = { gradePoints: '0', gradedUnits: '0', inProgressUnits: '0', unitsAttempted: '0' };

describe('the reading summary', () => {
  it('counts the received items and names the awaited ones', () => {
    const summary = checklistSummary(
      checklist([
        item('Transcript', 'received'),
        item('Application fee', 'awaiting'),
        item('Portfolio', 'waived'),
        item('Letter', 'awaiting'),
      ]),
    );
    expect(summary).toEqual({
      text: '1 of 3 received (1 waived)',
      missing: ['Application fee', 'Letter'],
    });
    expect(checklistSummary(checklist([item('Fee', 'received')])).text).toBe('1 of 1 received');
    expect(checklistSummary(checklist([]))).toEqual({ text: 'No items', missing: [] });
  });

  it('names the program and entry term as the application prints them, and counts documents', () => {
    const application = printableApplication(
      applicationModel,
      {
        answers: validApplicationAnswers(),
        documents: { hs_transcript: { file_name: 'transcript.pdf', status: 'COMPLETED' } },
      },
      { answeredOnly: true },
    );
    const summary = readingSummary(application, checklist([item('Fee', 'awaiting')]));
    expect(summary.program).toMatch(/^Psychology/);
    expect(summary.entryTerm).toMatch(/\d{4}/);
    expect(summary.documents).toBe(1);
    expect(summary.colleges).toEqual([]);
    expect(summary.missing).toEqual(['Fee']);
  });

  it('gives each college its transfer GPA and units, and says when there is no GPA', () => {
    const coursework: CourseworkTotals = {
      ...subtotals,
      gpa: '3.40',
      transferableUnits: '45.00',
      excludedRepeats: [],
      colleges: [
        { ...subtotals, college: 'Broward College', gpa: '3.45', transferableUnits: '30.00' },
        { ...subtotals, college: '', gpa: null, transferableUnits: '0.00' },
      ],
    };
    const summary = readingSummary({ pages: [], coursework }, checklist([]));
    expect(summary.program).toBeNull();
    expect(summary.colleges.map(collegeText)).toEqual([
      'Broward College: GPA 3.45, 30.00 units',
      'College: no GPA yet, 0.00 units',
    ]);
  });
});
