import { describe, expect, it } from 'vitest';
import {
  checklistAnnouncement,
  checklistSetText,
  missingText,
  nextAnnouncement,
  shownState,
} from './checklist-text';

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

describe('the checklist panel', () => {
  it('makes a repeated announcement differ, so it is read again', () => {
    expect(nextAnnouncement('', 'Marked Essay received.')).toBe('Marked Essay received.');
    const again = nextAnnouncement('Marked Essay received.', 'Marked Essay received.');
    expect(again).not.toBe('Marked Essay received.');
    expect(again.trim()).toBe('Marked Essay received.');
    // A third time differs from the second, which it follows.
    expect(nextAnnouncement(again, 'Marked Essay received.')).toBe('Marked Essay received.');
    expect(nextAnnouncement('Marked Essay received.', 'Marked Essay waived.')).toBe(
      'Marked Essay waived.',
    );
  });

  it('shows the state being saved at once, and the saved one otherwise', () => {
    expect(shownState('awaiting', 'received')).toBe('received');
    expect(shownState('received', undefined)).toBe('received');
  });
});
