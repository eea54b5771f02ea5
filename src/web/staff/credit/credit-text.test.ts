import { describe, expect, it } from 'vitest';
import { CREDIT_MESSAGES } from '../../../shared/credit/credit-api';
import type { CreditCourse } from '../../../shared/credit/credit-evaluation';
import {
  type CorrectionDraft,
  correctionBody,
  courseUnitsText,
  gradeText,
  mappedText,
  mappingText,
  reviewAnnouncement,
  serverCorrectionErrors,
} from './credit-text';

const draft = (change: Partial<CorrectionDraft>): CorrectionDraft => ({
  grade: '',
  units: '',
  kind: '',
  local_course: '',
  local_units: '',
  satisfies: '',
  reason: '',
  ...change,
});

const summary = { courses: 6, mapped: 5, needs_review: 1, reviewed: 4, mapped_share: '0.83' };

describe('the evaluator screen words', () => {
  it('shows the effective grade and units, with the entry where a correction differs', () => {
    expect(gradeText({ grade: 'B', effective_grade: 'C-' })).toBe('C- (entered B)');
    expect(gradeText({ grade: 'a', effective_grade: 'A' })).toBe('A');
    expect(gradeText({ grade: '', effective_grade: '' })).toBe('—');
    expect(courseUnitsText({ units: '4', effective_units: 4 })).toBe('4');
    expect(courseUnitsText({ units: '4', effective_units: 3 })).toBe('3 (entered 4)');
  });

  it('names a mapping and the counts', () => {
    const mapping: CreditCourse['mapping'] = {
      kind: 'course',
      local_course: 'MATH 150',
      local_units: 4,
      satisfies: ['GE-B4'],
      source: 'table',
    };
    expect(mappingText(mapping)).toBe('MATH 150 · Course · 4 units · GE-B4');
    expect(
      mappingText({
        kind: 'needs_review',
        local_course: '',
        local_units: null,
        satisfies: [],
        source: 'none',
      }),
    ).toBe('Needs review');
    expect(mappedText(summary)).toBe('5 of 6 mapped');
    expect(reviewAnnouncement('MATH 1A', 'verified', { summary })).toBe(
      'MATH 1A verified. 4 of 6 reviewed.',
    );
    expect(reviewAnnouncement('ART 5', 'undone', { summary })).toBe(
      'ART 5 review undone. 4 of 6 reviewed.',
    );
  });

  it('checks a correction with the server schema: a reason is required', () => {
    const refused = correctionBody('ref', draft({ grade: 'c-' }));
    expect(refused.errors).toEqual({ reason: CREDIT_MESSAGES.reasonRequired });
    const empty = correctionBody('ref', draft({ reason: 'Transcript' }));
    expect(empty.errors).toEqual({ form: CREDIT_MESSAGES.correctionEmpty });
    const accepted = correctionBody('ref', draft({ grade: 'c-', reason: 'Transcript shows C-' }));
    expect(accepted.body).toEqual({
      course_ref: 'ref',
      status: 'corrected',
      grade: 'C-',
      units: null,
      mapping: null,
      reason: 'Transcript shows C-',
    });
  });

  it('puts the schema errors beside their fields', () => {
    const units = correctionBody('ref', draft({ units: 'four', reason: 'x' }));
    expect(units.errors).toEqual({ units: CREDIT_MESSAGES.units });
    const mapped = correctionBody(
      'ref',
      draft({ kind: 'course', local_units: '3', satisfies: 'ge-a2, GE-B4', reason: 'Catalog' }),
    );
    expect(mapped.errors).toEqual({ local_course: CREDIT_MESSAGES.localCourse });
    const ok = correctionBody(
      'ref',
      draft({
        kind: 'course',
        local_course: 'ENGL 100',
        local_units: '3',
        satisfies: 'ge-a2, GE-B4',
        reason: 'Catalog',
      }),
    );
    expect(ok.body?.mapping).toEqual({
      kind: 'course',
      local_course: 'ENGL 100',
      local_units: 3,
      satisfies: ['GE-A2', 'GE-B4'],
    });
  });

  it('reads the server field errors by path', () => {
    expect(
      serverCorrectionErrors({ 'mapping.local_course': ['bad'], reason: ['why'], other: ['x'] }),
    ).toEqual({ local_course: 'bad', reason: 'why', form: 'x' });
  });
});
