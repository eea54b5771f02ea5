import { describe, expect, it } from 'vitest';
import { checklistAnnouncement, checklistSetText, missingText } from './checklist-text';

describe('the checklist in words', () => {
  it('announces what was marked', () => {
    expect(checklistAnnouncement('High school transcript', 'received')).toBe(
      'Marked High school transcript received.',
    );
    expect(checklistAnnouncement('Application fee', 'waived')).toBe(
      'Marked Application fee waived.',
    );
  });

  it('says who set an item and when', () => {
    const time = (iso: string) => `at ${iso}`;
    expect(checklistSetText({ set_by: null, set_at: null }, time)).toBe('Not marked yet');
    expect(
      checklistSetText(
        { set_by: { type: 'staff', id: 's1', label: 'Ana Reader' }, set_at: '2026-11-24' },
        time,
      ),
    ).toBe('By Ana Reader, at 2026-11-24');
    expect(
      checklistSetText(
        { set_by: { type: 'applicant', id: null, label: 'upload' }, set_at: null },
        time,
      ),
    ).toBe('By the applicant');
  });

  it('counts what is still awaited', () => {
    expect(missingText(0)).toBe('Nothing is awaited.');
    expect(missingText(1)).toBe('1 item awaited.');
    expect(missingText(3)).toBe('3 items awaited.');
  });
});
