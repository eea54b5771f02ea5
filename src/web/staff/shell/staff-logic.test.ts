import { describe, expect, it, vi } from 'vitest';
import { STAFF_MESSAGES } from '../../../shared/staff/staff-api';
import { ServerError } from '../../data/http-client';
import {
  actionLabel,
  auditFilterForm,
  coveredText,
  DATE_ORDER_MESSAGE,
  detailText,
  filtersFromSearch,
  filterValues,
  searchForValues,
} from '../audit/audit-filters';
import { linkDaysForm } from '../links/link-days';
import { stageRoute } from '../sign-in/use-sign-in-step';
import { groupKey, recoveryCodesText } from './secrets';
import { actionList, auditSearch, fileNameOf } from './staff-calls';
import {
  createActivityMarks,
  createStaffSession,
  readStaffNotice,
  STAFF_NOTICES,
  staffInactivityTimings,
  unauthorizedEndsSession,
} from './staff-session';
import { isStepUpRequired, runWithStepUp, StepUpCancelled, ssoStepUpHref } from './step-up-flow';

const STEP_UP = new ServerError('Confirm it is you.', 403, undefined, 'step_up_required');

describe('runWithStepUp', () => {
  it('returns what the action returns when no step-up is asked', async () => {
    const confirm = vi.fn(async () => {});
    await expect(runWithStepUp(async () => 'done', confirm)).resolves.toBe('done');
    expect(confirm).not.toHaveBeenCalled();
  });

  it('asks for the second factor once, then runs the action again', async () => {
    const action = vi.fn().mockRejectedValueOnce(STEP_UP).mockResolvedValueOnce('after step-up');
    const confirm = vi.fn(async () => {});
    await expect(runWithStepUp(action, confirm)).resolves.toBe('after step-up');
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(action).toHaveBeenCalledTimes(2);
  });

  it('passes on other failures without asking', async () => {
    const refused = new ServerError('Your role does not allow this.', 403);
    const confirm = vi.fn(async () => {});
    await expect(runWithStepUp(() => Promise.reject(refused), confirm)).rejects.toBe(refused);
    expect(confirm).not.toHaveBeenCalled();
  });

  it('does not run the action again when the member cancels', async () => {
    const action = vi.fn().mockRejectedValue(STEP_UP);
    const cancelled = new StepUpCancelled();
    await expect(runWithStepUp(action, () => Promise.reject(cancelled))).rejects.toBe(cancelled);
    expect(action).toHaveBeenCalledTimes(1);
  });

  it('knows the step-up refusal by its status and code', () => {
    expect(isStepUpRequired(STEP_UP)).toBe(true);
    expect(isStepUpRequired(new ServerError('x', 400, undefined, 'step_up_required'))).toBe(false);
    expect(isStepUpRequired(new Error('x'))).toBe(false);
    expect(ssoStepUpHref()).toBe('/staff/sso/start?step_up=1');
  });
});

describe('staff session helpers', () => {
  it('reads only a well-formed notice from history state', () => {
    expect(readStaffNotice({ notice: STAFF_NOTICES.ended })).toEqual(STAFF_NOTICES.ended);
    expect(readStaffNotice({ notice: { kind: 'warning', text: 'x' } })).toBeNull();
    expect(readStaffNotice({ notice: { kind: 'error', text: '' } })).toBeNull();
    expect(readStaffNotice(null)).toBeNull();
    expect(readStaffNotice('notice')).toBeNull();
  });

  it('times out after the idle minutes from /me, warning a minute before', () => {
    expect(staffInactivityTimings(30)).toEqual({ timeoutMs: 1_800_000, promptBeforeMs: 60_000 });
    // A very short time-out still leaves half of it before the warning.
    expect(staffInactivityTimings(1)).toEqual({ timeoutMs: 60_000, promptBeforeMs: 30_000 });
    expect(staffInactivityTimings(Number.NaN).timeoutMs).toBe(1_800_000);
  });

  it('shares the activity mark through storage, under a key of its own', () => {
    const store = new Map<string, string>();
    const marks = createActivityMarks(() => ({
      getItem: (key) => store.get(key) ?? null,
      setItem: (key, value) => store.set(key, value),
    }));
    expect(marks.read()).toBeNull();
    marks.write(1234);
    expect(store.get('tp_staff_last_activity')).toBe('1234');
    store.set('tp_staff_last_activity', '5678');
    expect(marks.read()).toBe(5678);
  });

  it('keeps the mark in memory when storage is blocked', () => {
    const marks = createActivityMarks(() => ({
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('blocked');
      },
    }));
    marks.write(42);
    expect(marks.read()).toBe(42);
  });

  it('says when a sign-out is under way', async () => {
    const session = createStaffSession(createActivityMarks(() => undefined));
    let during = false;
    await session.ending.during(async () => {
      during = session.ending.isUnderWay();
    });
    expect(during).toBe(true);
    expect(session.ending.isUnderWay()).toBe(false);
  });

  it('leaves a 401 on the sign-in page to the page itself', () => {
    expect(unauthorizedEndsSession('/staff/sign-in')).toBe(false);
    expect(unauthorizedEndsSession('/staff/sign-in/')).toBe(false);
    expect(unauthorizedEndsSession('/staff/sign-in/code')).toBe(true);
    expect(unauthorizedEndsSession('/staff/team')).toBe(true);
  });

  it('goes on to the page of the next step of signing in', () => {
    expect(stageRoute('enrol')).toBe('/staff/enrol');
    expect(stageRoute('second_factor')).toBe('/staff/sign-in/code');
    expect(stageRoute('signed_in')).toBe('/staff');
    expect(stageRoute(undefined)).toBe('/staff');
  });
});

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

  it('takes the file name from Content-Disposition', () => {
    expect(fileNameOf('attachment; filename="audit-2026-09-01.csv"')).toBe('audit-2026-09-01.csv');
    expect(fileNameOf("attachment; filename*=UTF-8''audit%20log.csv")).toBe('audit log.csv');
    expect(fileNameOf(null)).toBeNull();
    expect(fileNameOf('attachment')).toBeNull();
  });
});

describe('secrets shown once', () => {
  it('groups the key in fours', () => {
    expect(groupKey('JBSWY3DPEHPK3PXPJBSW')).toBe('JBSW Y3DP EHPK 3PXP JBSW');
    expect(groupKey(' ABC DEFG ')).toBe('ABCD EFG');
    expect(groupKey('')).toBe('');
  });

  it('writes the recovery codes with whose they are and how to use them', () => {
    const text = recoveryCodesText(['AAAAA-BBBBB', 'CCCCC-DDDDD'], 'Northfield', 'a@b.edu');
    expect(text.split('\n').slice(0, 4)).toEqual([
      'Northfield admissions console: recovery codes for a@b.edu',
      '',
      'AAAAA-BBBBB',
      'CCCCC-DDDDD',
    ]);
  });

  it('allows read-only links of 1 to 30 whole days', () => {
    for (const days of ['1', '7', '30', ' 12 ']) {
      expect(linkDaysForm.safeParse({ days }).success).toBe(true);
    }
    for (const days of ['0', '31', '2.5', '', 'ten', '100']) {
      const result = linkDaysForm.safeParse({ days });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(STAFF_MESSAGES.linkDaysInvalid);
    }
  });
});
