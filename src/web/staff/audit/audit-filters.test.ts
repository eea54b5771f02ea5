import { describe, expect, it } from 'vitest';
import { actionList, auditSearch } from './audit-calls';
import {
  actionLabel,
  auditFilterForm,
  coveredText,
  DATE_ORDER_MESSAGE,
  detailText,
  filtersFromSearch,
  filterValues,
  searchForValues,
} from './audit-filters';

describe('audit filters', () => {
  it('puts only the filters that are set into the query, then the page', () => {
    expect(auditSearch({})).toBe('');
    expect(auditSearch({ actor: ' a@b.edu ', action: '' }, 40)).toBe('?actor=a%40b.edu&before=40');
    expect(auditSearch({ from: '2026-09-01', to: '2026-09-30' }, null)).toBe(
      '?from=2026-09-01&to=2026-09-30',
    );
  });

  it('reads the filters from the address and ignores anything else', () => {
    const params = new URLSearchParams('actor=x&before=3&action=staff.invited&to=');
    expect(filtersFromSearch(params)).toEqual({ actor: 'x', action: 'staff.invited' });
    expect(filterValues({ actor: 'x' })).toEqual({
      actor: 'x',
      application: '',
      action: '',
      from: '',
      to: '',
    });
    expect(
      searchForValues({ actor: ' x ', application: '', action: '', from: '2026-01-02', to: '' }),
    ).toEqual({ actor: 'x', from: '2026-01-02' });
  });

  it('checks the form like the server checks the address, empty meaning any', () => {
    const empty = { actor: '', application: '', action: '', from: '', to: '' };
    expect(auditFilterForm.safeParse(empty).success).toBe(true);
    expect(auditFilterForm.safeParse({ ...empty, application: 'abc' }).success).toBe(false);
    expect(auditFilterForm.safeParse({ ...empty, from: '2026-13-01' }).success).toBe(false);
    const reversed = auditFilterForm.safeParse({ ...empty, from: '2026-09-02', to: '2026-09-01' });
    expect(reversed.success).toBe(false);
    expect(reversed.error?.issues[0]?.message).toBe(DATE_ORDER_MESSAGE);
    expect(
      auditFilterForm.safeParse({
        ...empty,
        application: '0b0e4a52-6f0c-4d3e-9a43-8d5f5f1c2e11',
        from: '2026-09-01',
        to: '2026-09-01',
      }).success,
    ).toBe(true);
  });

  it('accepts the action list bare or wrapped', () => {
    expect(actionList(['a', 'b', 3])).toEqual(['a', 'b']);
    expect(actionList({ actions: ['c'] })).toEqual(['c']);
    expect(actionList(null)).toEqual([]);
  });

  it('shows actions and details as people read them', () => {
    expect(actionLabel('staff.role_changed')).toBe('staff role changed');
    expect(detailText('text')).toBe('text');
    expect(detailText(3)).toBe('3');
    expect(detailText({ a: 1 })).toBe('{"a":1}');
    expect(detailText(null)).toBe('');
  });

  it('says what an entry about many applications covered, not "None"', () => {
    expect(coveredText('applications.export_csv', { rows: 42, columns: ['id'] })).toBe(
      '42 applications',
    );
    expect(coveredText('applications.export_zip', { rows: 1 })).toBe('1 application');
    expect(coveredText('decision.recorded', { batch: true, code: 'admit', count: 1200 })).toBe(
      '1,200 applications',
    );
    expect(coveredText('decision.release_scheduled', { batch: true, count: 0 })).toBe(
      '0 applications',
    );
    expect(coveredText('application.search', { q: 'lopez', found: 3 })).toBe('3 applications');
    // The audit log's own export counts entries, not applications; a sign-in covers none.
    expect(coveredText('audit.export', { rows: 10 })).toBeNull();
    expect(coveredText('staff.sign_in', {})).toBeNull();
    expect(coveredText('applications.export_csv', { rows: '42' })).toBeNull();
    expect(coveredText('applications.export_csv', null)).toBeNull();
  });
});
