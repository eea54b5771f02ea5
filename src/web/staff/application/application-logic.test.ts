import { describe, expect, it } from 'vitest';
import {
  applicantName,
  applicationPath,
  checklistAnnouncement,
  checklistSetText,
  historyActionText,
  isTypingTarget,
  listPath,
  listQueryOf,
  missingText,
  positionText,
  queueEndMessage,
  type ShortcutKeyPress,
  shortcutFor,
  shortcutsEnabledFrom,
  withListPage,
} from './application-logic';

const press = (key: string, more: Partial<ShortcutKeyPress> = {}): ShortcutKeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...more,
});

const body = { tagName: 'BODY' };

describe('keyboard shortcuts of the application page', () => {
  it('maps j, k and o to next, previous and the PDF', () => {
    expect(shortcutFor(press('j'), body)).toBe('next');
    expect(shortcutFor(press('k'), body)).toBe('previous');
    expect(shortcutFor(press('o'), body)).toBe('pdf');
    expect(shortcutFor(press('x'), body)).toBeNull();
    expect(shortcutFor(press('j'), null)).toBe('next');
  });

  it('leaves keys with a modifier to the browser and the screen reader', () => {
    for (const modifier of ['ctrlKey', 'metaKey', 'altKey', 'shiftKey'] as const) {
      expect(shortcutFor(press('j', { [modifier]: true }), body)).toBeNull();
    }
    // Caps lock or Shift gives "J": not a shortcut either.
    expect(shortcutFor(press('J'), body)).toBeNull();
  });

  it('ignores held keys, composition and keys something else already handled', () => {
    expect(shortcutFor(press('j', { repeat: true }), body)).toBeNull();
    expect(shortcutFor(press('j', { isComposing: true }), body)).toBeNull();
    expect(shortcutFor(press('j', { defaultPrevented: true }), body)).toBeNull();
  });

  it('are on until the reader turns them off', () => {
    expect(shortcutsEnabledFrom(null)).toBe(true);
    expect(shortcutsEnabledFrom('on')).toBe(true);
    expect(shortcutsEnabledFrom('off')).toBe(false);
  });

  it('never takes a key typed into a field, a list box or a dialog', () => {
    expect(shortcutFor(press('j'), { tagName: 'INPUT', type: 'text' })).toBeNull();
    expect(shortcutFor(press('j'), { tagName: 'input' })).toBeNull();
    expect(shortcutFor(press('k'), { tagName: 'TEXTAREA' })).toBeNull();
    expect(shortcutFor(press('o'), { tagName: 'SELECT' })).toBeNull();
    expect(shortcutFor(press('o'), { tagName: 'DIV', isContentEditable: true })).toBeNull();
    expect(shortcutFor(press('j'), { tagName: 'BUTTON', inDialog: true })).toBeNull();
    // A button or a checkbox takes no text: the key is a command there.
    expect(shortcutFor(press('j'), { tagName: 'BUTTON' })).toBe('next');
    expect(isTypingTarget({ tagName: 'INPUT', type: 'checkbox' })).toBe(false);
    expect(isTypingTarget({ tagName: 'INPUT', type: 'search' })).toBe(true);
  });
});

describe('the list the reader came from', () => {
  it('keeps only what the list understands, in order, repeated filters included', () => {
    expect(listQueryOf('?status=submitted&status=started&q=lopez&utm=x&sort=name&page=2')).toBe(
      'status=submitted&status=started&q=lopez&sort=name&page=2',
    );
    // The home page's lookup of one address is not a list.
    expect(listQueryOf('email=a%40example.com')).toBe('');
    expect(listQueryOf(new URLSearchParams('q=&term=FA2026'))).toBe('term=FA2026');
  });

  it('carries the page a neighbour is on', () => {
    expect(withListPage('status=submitted&page=2', 3)).toBe('status=submitted&page=3');
    expect(withListPage('status=submitted', 1)).toBe('status=submitted');
    expect(withListPage('status=submitted', 2)).toBe('status=submitted&page=2');
    expect(withListPage('q=x', null)).toBe('q=x');
  });

  it('makes the addresses of an application and of the list', () => {
    expect(applicationPath('abc', 'q=x')).toBe('/staff/applications/abc?q=x');
    expect(applicationPath('abc', '')).toBe('/staff/applications/abc');
    expect(listPath('q=x&page=2')).toBe('/staff?q=x&page=2');
    expect(listPath('')).toBe('/staff');
  });

  it('says why a step goes nowhere', () => {
    expect(queueEndMessage('next', { position: 3 }, false)).toBe(
      'This is the last application in the list.',
    );
    expect(queueEndMessage('previous', { position: 1 }, false)).toBe(
      'This is the first application in the list.',
    );
    expect(queueEndMessage('next', { position: null }, false)).toMatch(/not in the list/);
    expect(queueEndMessage('next', undefined, false)).toMatch(/^Still finding/);
    expect(queueEndMessage('next', undefined, true)).toMatch(/could not be found/);
  });

  it('says the place in the list, or nothing outside it', () => {
    expect(positionText(3, 120)).toBe('3 of 120');
    expect(positionText(1200, 4500)).toBe('1,200 of 4,500');
    expect(positionText(null, 120)).toBe('');
    expect(positionText(1, 0)).toBe('');
  });
});

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

describe('the applicant', () => {
  it('is named from the answers, or not at all', () => {
    expect(applicantName({ first_name: ' Maria ', last_name: 'Lopez' })).toBe('Maria Lopez');
    expect(applicantName({ first_name: 'Maria', last_name: true })).toBe('Maria');
    expect(applicantName({})).toBeNull();
  });
});
