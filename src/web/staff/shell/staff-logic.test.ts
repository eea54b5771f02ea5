import { describe, expect, it, vi } from 'vitest';
import { ServerError } from '../../data/http-client';
import { groupKey, recoveryCodesText } from './secrets';
import { fileNameOf } from './staff-calls';
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
});

describe('files from the server', () => {
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
});
