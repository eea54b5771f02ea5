import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GENERIC_SERVER_ERROR_MESSAGE } from '../../shared/api/errors';
import type { ProfileResponse } from '../../shared/api/profile';
import {
  TEMPORARY_ANSWERS_EXPIRED_MESSAGE,
  TEMPORARY_ANSWERS_FAILED_TITLE,
  TEMPORARY_ANSWERS_LOADED_TITLE,
} from '../../shared/api/temporary-answers';
import { createFormSession, type FormSession } from '../app-state/form-session';
import { takePrefillNotice } from '../app-state/prefill-notice';
import { createQueryClient } from '../query-client';
import { gapsFilledBy, loadTemporaryAnswers } from './load-temporary-answers';

const SET = {
  answer: { first_name: 'Prefilled', last_name: 'Lopez', gender: 'F', gender_desc: 'Female' },
  label: 'Counselor draft',
  expires_at: '2026-12-06T00:00:00.000Z',
};

interface Sent {
  method: string;
  url: string;
  body: unknown;
}

/** Answers fetch like the server: the set at /public/tmp, and saves with 200. */
function fakeServer(tmp: { status: number; body: unknown }) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      sent.push({ method, url, body: init.body ? JSON.parse(String(init.body)) : undefined });
      if (url.startsWith('/public/tmp')) return Response.json(tmp.body, { status: tmp.status });
      return Response.json({ message: 'Saved.' });
    }),
  );
  return sent;
}

function profile(answer: ProfileResponse['answer']): ProfileResponse {
  return {
    answer,
    document_answer: {},
    username: `student${Math.random()}@example.edu`,
    last_page: null,
    successful_login: [{ logged_in_at: '2026-11-22T00:00:00.000Z' }],
    web_status: [{ web_status: 'started' }],
  };
}

describe('gapsFilledBy', () => {
  it('fills blanks only, and a label only with its choice', () => {
    const current: Record<string, string | boolean> = { last_name: 'Mine', gender: 'M' };
    expect(
      gapsFilledBy({ ...SET.answer, optin_sms_ind: true, middle_name: '' }, (key) => current[key]),
    ).toEqual({ first_name: 'Prefilled', optin_sms_ind: true });
    expect(gapsFilledBy(SET.answer, () => '')).toEqual(SET.answer);
    expect(gapsFilledBy(SET.answer, () => false)).toEqual(SET.answer);
  });
});

describe('loadTemporaryAnswers', () => {
  let session: FormSession;
  beforeEach(() => {
    session = createFormSession(createQueryClient());
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('fills an anonymous visitor’s blanks in the browser only', async () => {
    const sent = fakeServer({ status: 200, body: SET });
    session.sync(null);
    session.answers.setMany({ last_name: 'Mine' });
    await loadTemporaryAnswers(session, 'the-token');

    expect(sent.map((call) => `${call.method} ${call.url}`)).toEqual([
      'GET /public/tmp?token=the-token',
    ]);
    expect(session.answers.getAll()).toMatchObject({
      first_name: 'Prefilled',
      last_name: 'Mine',
      gender: 'F',
      gender_desc: 'Female',
    });
    expect(takePrefillNotice(session.prefillNotice)).toEqual({
      severity: 'success',
      title: TEMPORARY_ANSWERS_LOADED_TITLE,
      description:
        '2 answers were filled in from “Counselor draft” and kept in this browser. Answers you had already given were kept. Please check them before you submit.',
    });
  });

  it('saves into a signed-in applicant’s account without overwriting an answer', async () => {
    const sent = fakeServer({ status: 200, body: SET });
    session.sync(profile({ first_name: 'Own' }));
    expect(session.answers.mode).toBe('account');
    await loadTemporaryAnswers(session, 'the-token');

    const save = sent.find((call) => call.method === 'PUT');
    expect(save?.url).toBe('/api/answer?keep_existing=true');
    expect(save?.body).toEqual({ last_name: 'Lopez', gender: 'F', gender_desc: 'Female' });
    expect(session.answers.getAll()).toMatchObject({ first_name: 'Own', last_name: 'Lopez' });
    expect(session.answers.hasDirty()).toBe(false);
    expect(takePrefillNotice(session.prefillNotice)?.description).toMatch(
      /^2 answers were filled in .* saved to your application\./,
    );
  });

  it('loads nothing from an expired or broken link and says why', async () => {
    for (const [reply, message] of [
      [
        { status: 410, body: { message: TEMPORARY_ANSWERS_EXPIRED_MESSAGE } },
        TEMPORARY_ANSWERS_EXPIRED_MESSAGE,
      ],
      [{ status: 200, body: { answer: ['not', 'answers'] } }, GENERIC_SERVER_ERROR_MESSAGE],
    ] as const) {
      fakeServer(reply);
      session.sync(null);
      const before = session.answers.getAll();
      await loadTemporaryAnswers(session, 'the-token');
      expect(session.answers.getAll()).toBe(before);
      expect(takePrefillNotice(session.prefillNotice)).toEqual({
        severity: 'error',
        title: TEMPORARY_ANSWERS_FAILED_TITLE,
        description: message,
      });
    }
  });
});
