import { describe, expect, it } from 'vitest';
import { historyActionText } from './history-text';

describe('the history in words', () => {
  it('names known actions in a sentence', () => {
    expect(historyActionText('application.view', {})).toBe('Opened the application in the console');
    expect(historyActionText('decision.recorded', { code: 'admit' })).toBe(
      'Recorded the decision admit',
    );
    expect(historyActionText('decision.release_scheduled', { code: 'admit', at: 'now' })).toBe(
      'Asked to release the decision admit now',
    );
    expect(historyActionText('decision.replied', { code: 'admit', reply: 'accepted' })).toBe(
      'The applicant accepted the offer',
    );
    expect(historyActionText('decision.released', {})).toBe('Released the decision');
    expect(historyActionText('application_pdf.view', {})).toBe('Downloaded the application PDF');
    expect(historyActionText('service_link.used', null)).toBe(
      'Read the application through a read-only link',
    );
  });

  it('names reading’s actions in a sentence, not by their audit names', () => {
    expect(historyActionText('review.view', {})).toBe('Opened the reads');
    expect(historyActionText('review.submitted', { read_id: 'r1' })).toBe('Submitted a read');
    expect(historyActionText('review.committee_view', {})).toBe('Opened every read (committee)');
    expect(historyActionText('application.notes_view', {})).toBe('Opened the internal notes');
    expect(historyActionText('application.note_added', { note_id: 'n1' })).toBe(
      'Added an internal note',
    );
  });

  it('says which checklist item became what', () => {
    const labels = {
      item: (key: string) => (key === 'document:hs_transcript' ? 'High school transcript' : null),
      document: () => null,
      decision: () => null,
    };
    expect(
      historyActionText(
        'checklist.mark',
        { item: 'document:hs_transcript', state: 'received', previous: 'awaiting' },
        labels,
      ),
    ).toBe('Marked High school transcript received');
    expect(historyActionText('checklist.mark', { item: 'fee', state: 'waived' }, labels)).toBe(
      'Marked fee waived',
    );
    expect(historyActionText('checklist.mark', { item: 'fee' })).toBe('Marked a checklist item');
  });

  it('names the document opened or downloaded', () => {
    const label = {
      item: () => null,
      document: (key: string) => (key === 'hs_transcript' ? 'High school transcript' : null),
      decision: () => null,
    };
    expect(historyActionText('document.view', { answer_key: 'hs_transcript' }, label)).toBe(
      'Opened the document High school transcript',
    );
    expect(
      historyActionText(
        'document.view',
        { answer_key: 'other_doc', disposition: 'attachment' },
        label,
      ),
    ).toBe('Downloaded the document other_doc');
  });

  it('names a decision by the tenant’s label, and a code it no longer has by its code', () => {
    const codes = new Map([
      ['admit', 'Admit to the program'],
      ['waitlist', 'Waitlist'],
    ]);
    const labels = {
      item: () => null,
      document: () => null,
      decision: (code: string) => codes.get(code) ?? null,
    };
    expect(historyActionText('decision.recorded', { code: 'admit' }, labels)).toBe(
      'Recorded the decision Admit to the program',
    );
    expect(
      historyActionText('decision.changed', { code: 'waitlist', previous: 'admit' }, labels),
    ).toBe('Changed the decision from Admit to the program to Waitlist');
    expect(
      historyActionText('decision.release_scheduled', { code: 'admit', at: 'now' }, labels),
    ).toBe('Asked to release the decision Admit to the program now');
    expect(historyActionText('decision.released', { code: 'admit' }, labels)).toBe(
      'Released the decision Admit to the program',
    );
    expect(historyActionText('decision.released', { code: 'gone' }, labels)).toBe(
      'Released the decision gone',
    );
  });

  it('makes an action it does not know readable', () => {
    expect(historyActionText('export.pdf_zip', {})).toBe('Export pdf zip');
    expect(historyActionText('', {})).toBe('Unknown action');
  });
});
