import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALREADY_SUBMITTED_MESSAGE,
  ERROR_SUMMARY_TITLE,
} from '../../shared/api/application-messages';
import { ABOUT_MESSAGES } from '../../shared/application/about-page';
import { applicationModel } from '../../shared/application/application-model';
import { ANSWER_MESSAGES } from '../../shared/form/answer-keys';
import { resolveModel } from '../../shared/form/resolve';
import {
  answersFromRecord,
  choicesOfModel,
  type LookupBinding,
} from '../../shared/lookup/lookup-answers';
import type { LookupRecord } from '../../shared/lookup/lookup-schemas';
import { validApplicationAnswers } from '../../shared/test/application-fixtures';
import { fixtureModel } from '../../shared/test/fixture-model';
import { importLookupCsv } from '../lookup/lookup-import';
import { callAs, signedInApplicant } from '../test/accounts-helpers';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';

describe.each(databaseKinds)('the application life cycle on %s', (kind) => {
  let app: FastifyInstance;
  let counter = 0;
  const applicant = () => signedInApplicant(app, `life${++counter}.${kind}@example.edu`);
  const call = (cookie: string, method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown) =>
    callAs(app, cookie, method, url, payload);
  const answersOf = async (cookie: string) =>
    (await call(cookie, 'GET', '/api/profile')).json().answer;

  beforeAll(async () => {
    app = await buildTestApp(kind, { model: fixtureModel });
  });
  afterAll(async () => {
    await app.close();
  });

  it('refuses every call without a session', async () => {
    for (const [method, url] of [
      ['PUT', '/api/answer'],
      ['GET', '/api/tabs'],
      ['PUT', '/api/add-another'],
      ['POST', '/api/submit'],
      ['POST', '/api/web-status'],
    ] as const) {
      const response = await app.inject({ method, url, payload: {} });
      expect(response.statusCode, url).toBe(401);
    }
  });

  it('merges answers per key and loses nothing under concurrent writers', async () => {
    const cookie = await applicant();
    expect((await call(cookie, 'PUT', '/api/answer', { first_name: 'Ana' })).statusCode).toBe(200);
    const keys = [
      'branch_name',
      'branch_2_name',
      'branch_3_name',
      'essay',
      'portfolio',
      'credits',
      'signature',
      'statement_text',
      'study_location',
      'phone_mobile',
    ];
    const writes = keys.map((key, i) =>
      call(cookie, 'PUT', '/api/answer', { [key]: `value ${i}` }),
    );
    expect((await Promise.all(writes)).map((r) => r.statusCode)).toEqual(keys.map(() => 200));
    const answers = await answersOf(cookie);
    expect(answers.first_name).toBe('Ana');
    expect(keys.map((key) => answers[key])).toEqual(keys.map((_, i) => `value ${i}`));
  });

  it('refuses unknown keys, wrong types and over-long values, keeping nothing of the patch', async () => {
    const cookie = await applicant();
    await call(cookie, 'PUT', '/api/answer', { first_name: 'Ana' });
    const bad = await call(cookie, 'PUT', '/api/answer', {
      first_name: 'Bea',
      made_up: 'x',
      optin_sms_ind: 'yes',
      credits: 'x'.repeat(46),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({
      made_up: [ANSWER_MESSAGES.unknownKey],
      optin_sms_ind: [ANSWER_MESSAGES.wrongType('boolean')],
      credits: [ANSWER_MESSAGES.tooLong(45)],
    });
    for (const payload of [
      '[1,2]',
      '"text"',
      '{"first_name": "a\\u0000b"}',
      '{"first_name": "\\ud800"}',
    ]) {
      const response = await app.inject({
        method: 'PUT',
        url: '/api/answer',
        headers: { cookie, 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode, payload).toBe(400);
    }
    expect((await answersOf(cookie)).first_name).toBe('Ana');
  });

  it('carries answers from before sign-up in without overwriting the account', async () => {
    const cookie = await applicant();
    await call(cookie, 'PUT', '/api/answer', { first_name: 'Ana', credits: '' });
    const merge = await call(cookie, 'PUT', '/api/answer?keep_existing=true', {
      first_name: 'Anonymous',
      credits: '30',
      essay: 'Draft',
    });
    expect(merge.statusCode).toBe(200);
    expect(await answersOf(cookie)).toMatchObject({
      first_name: 'Ana',
      credits: '30',
      essay: 'Draft',
    });
  });

  it('keeps tabs and add-another counts within the model', async () => {
    const cookie = await applicant();
    expect((await call(cookie, 'GET', '/api/tabs')).json()).toEqual({});
    expect(
      (await call(cookie, 'PUT', '/api/tabs', { tab_id: 'statement_tabs', chosen_tab: 'upload' }))
        .statusCode,
    ).toBe(200);
    expect((await call(cookie, 'GET', '/api/tabs')).json()).toEqual({ statement_tabs: 'upload' });
    expect(
      (await call(cookie, 'PUT', '/api/tabs', { tab_id: 'nope', chosen_tab: 'upload' })).statusCode,
    ).toBe(400);
    expect(
      (await call(cookie, 'PUT', '/api/tabs', { tab_id: 'statement_tabs', chosen_tab: 'nope' }))
        .statusCode,
    ).toBe(400);
    expect((await call(cookie, 'PUT', '/api/tabs', { tab_id: 'statement_tabs' })).statusCode).toBe(
      400,
    );

    expect(
      (await call(cookie, 'PUT', '/api/add-another', { button_id: 'branches', num_components: 2 }))
        .statusCode,
    ).toBe(200);
    expect((await call(cookie, 'GET', '/api/add-another')).json()).toEqual({ branches: 2 });
    for (const payload of [
      { button_id: 'branches', num_components: 0 },
      { button_id: 'branches', num_components: 11 },
      { button_id: 'branches', num_components: 4 },
      { button_id: 'branches', num_components: 1.5 },
      { button_id: 'branches', num_components: '2' },
      { button_id: 'nope', num_components: 1 },
      { button_id: 'branches', num_components: 1, extra: true },
    ]) {
      expect(
        (await call(cookie, 'PUT', '/api/add-another', payload)).statusCode,
        JSON.stringify(payload),
      ).toBe(400);
    }
    expect((await call(cookie, 'GET', '/api/add-another')).json()).toEqual({ branches: 2 });
  });

  it('records the last page and web statuses in order', async () => {
    const cookie = await applicant();
    expect(
      (await call(cookie, 'PUT', '/api/last-page', { last_page: '/education' })).statusCode,
    ).toBe(200);
    expect((await call(cookie, 'PUT', '/api/last-page', { last_page: '/admin' })).statusCode).toBe(
      400,
    );
    expect(
      (await call(cookie, 'POST', '/api/web-status', { web_status: 'bogus' })).statusCode,
    ).toBe(400);
    expect(
      (await call(cookie, 'POST', '/api/web-status', { web_status: 'submitted' })).statusCode,
    ).toBe(409);
    expect(
      (await call(cookie, 'POST', '/api/web-status', { web_status: 'validating' })).statusCode,
    ).toBe(200);
    expect(
      (await call(cookie, 'POST', '/api/web-status', { web_status: 'started' })).statusCode,
    ).toBe(200);
    const profile = (await call(cookie, 'GET', '/api/profile')).json();
    expect(profile.last_page).toBe('/education');
    expect(profile.web_status).toEqual([{ web_status: 'started' }, { web_status: 'validating' }]);
    expect(
      (
        await call(cookie, 'POST', '/api/validations', {
          errors: { first_name: ['First name is required.'] },
        })
      ).statusCode,
    ).toBe(200);
    expect((await call(cookie, 'POST', '/api/validations', { errors: 'nope' })).statusCode).toBe(
      400,
    );
  });

  it('validates at submit, submits once, clears hidden answers and then refuses every change', async () => {
    const cookie = await applicant();
    const invalid = await call(cookie, 'POST', '/api/submit');
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json()).toMatchObject({
      message: ERROR_SUMMARY_TITLE,
      errors: { first_name: ['First name is required.'] },
    });

    await call(cookie, 'PUT', '/api/answer', {
      first_name: 'Ana',
      birth_date: '2000-01-01',
      military: 'N',
      branch_name: 'Army',
    });
    const submits = await Promise.all([1, 2, 3].map(() => call(cookie, 'POST', '/api/submit')));
    expect(submits.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);

    const profile = (await call(cookie, 'GET', '/api/profile')).json();
    expect(profile.web_status).toEqual([
      { web_status: 'started' },
      { web_status: 'validating' },
      { web_status: 'submitted' },
    ]);
    expect(profile.answer).toMatchObject({ first_name: 'Ana', branch_name: '' });

    const change = await call(cookie, 'PUT', '/api/answer', { first_name: 'Changed' });
    expect(change.statusCode).toBe(409);
    expect(change.json().message).toBe(ALREADY_SUBMITTED_MESSAGE);
    expect(
      (await call(cookie, 'PUT', '/api/tabs', { tab_id: 'statement_tabs', chosen_tab: 'upload' }))
        .statusCode,
    ).toBe(409);
    expect(
      (await call(cookie, 'PUT', '/api/add-another', { button_id: 'branches', num_components: 2 }))
        .statusCode,
    ).toBe(409);
    expect((await call(cookie, 'PUT', '/api/last-page', { last_page: '/about' })).statusCode).toBe(
      409,
    );
    expect(
      (await call(cookie, 'POST', '/api/web-status', { web_status: 'submitted' })).statusCode,
    ).toBe(200);
    expect((await answersOf(cookie)).first_name).toBe('Ana');
  });

  it('saves for an account without an application row, and refuses an ended session', async () => {
    const email = `norow.${kind}@example.edu`;
    const cookie = await signedInApplicant(app, email);
    const mine = sql`(select id from accounts where email = ${email})`;
    await testDatabaseOf(app).execute(sql`delete from applications where account_id = ${mine}`);
    expect((await call(cookie, 'PUT', '/api/answer', { first_name: 'Row' })).statusCode).toBe(200);
    expect((await answersOf(cookie)).first_name).toBe('Row');
    await testDatabaseOf(app).execute(
      sql`update sessions set last_seen_at = now() - interval '16 minutes'`,
    );
    const ended = await call(cookie, 'PUT', '/api/answer', { first_name: 'Late' });
    expect(ended.statusCode).toBe(401);
    expect(ended.cookies.find((c) => c.name === 'tp_session')?.value).toBe('');
  });

  it('keeps each applicant to their own application', async () => {
    const first = await applicant();
    const second = await applicant();
    await call(first, 'PUT', '/api/answer', { first_name: 'First' });
    expect((await answersOf(second)).first_name).toBeUndefined();
  });
});

describe.each(databaseKinds)('answers checked against the application model on %s', (kind) => {
  let app: FastifyInstance;
  let counter = 0;
  const applicant = async () => {
    const email = `model${++counter}.${kind}@example.edu`;
    return { email, cookie: await signedInApplicant(app, email) };
  };
  const call = (cookie: string, method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown) =>
    callAs(app, cookie, method, url, payload);
  const answersOf = async (cookie: string) =>
    (await call(cookie, 'GET', '/api/profile')).json().answer;
  const accountOf = (email: string) => sql`(select id from accounts where email = ${email})`;
  /** An answer written straight into the database, as one saved before these checks could be. */
  const storeDirectly = (email: string, answers: Record<string, string>) =>
    testDatabaseOf(app).execute(
      sql`update applications set answers = answers || ${JSON.stringify(answers)}::jsonb
          where account_id = ${accountOf(email)}`,
    );
  const entryTerm = () =>
    resolveModel(applicationModel, {
      answers: {},
      addAnother: {},
      tabs: {},
      isLoggedIn: true,
    }).find((place) => place.key === 'entry_term')?.field.options?.[1]?.value ?? '';

  beforeAll(async () => {
    app = await buildTestApp(kind);
  });
  afterAll(async () => {
    await app.close();
  });

  it('refuses an answer the form cannot give with 400, and keeps nothing of the patch', async () => {
    const { cookie } = await applicant();
    expect((await call(cookie, 'PUT', '/api/answer', { first_name: 'Ana' })).statusCode).toBe(200);
    const before = await answersOf(cookie);
    const cases: Array<[key: string, value: unknown, message: string]> = [
      ['gender', 'ZZZ', ANSWER_MESSAGES.notAnOption],
      ['birth_date', 'not-a-date', ABOUT_MESSAGES.birthDate],
      ['birth_date', '2023-02-30', ABOUT_MESSAGES.birthDate],
      ['entry_term', 'XX1999', ANSWER_MESSAGES.notAnOption],
      ['hs_attended_from_year', '1900', ANSWER_MESSAGES.notAnOption],
      ['hs_attended_from_month', '13', ANSWER_MESSAGES.notAnOption],
      ['optin_sms_ind', 'yes', ANSWER_MESSAGES.wrongType('boolean')],
      ['hs_transcript', 'ANSWERED', ANSWER_MESSAGES.fileAnswer],
      ['personal_statement_doc', '', ANSWER_MESSAGES.fileAnswer],
      ['gender_desc', 'Female', ANSWER_MESSAGES.labelWithoutAnswer],
    ];
    for (const [key, value, message] of cases) {
      const response = await call(cookie, 'PUT', '/api/answer', {
        first_name: 'Bea',
        [key]: value,
      });
      expect(response.statusCode, `${key}=${String(value)}`).toBe(400);
      expect(response.json().errors, `${key}=${String(value)}`).toEqual({ [key]: [message] });
    }
    const mislabelled = await call(cookie, 'PUT', '/api/answer', {
      gender: 'F',
      gender_desc: 'Male',
    });
    expect(mislabelled.json().errors).toEqual({ gender_desc: [ANSWER_MESSAGES.labelMismatch] });
    expect(await answersOf(cookie)).toEqual(before);
  });

  it('saves answers the form can give, each choice with its label', async () => {
    const { cookie } = await applicant();
    const saved = await call(cookie, 'PUT', '/api/answer', {
      gender: 'F',
      birth_date: '2000-02-29',
      entry_term: entryTerm(),
      hs_attended_from_year: '2014',
      hs_attended_from_month: '8',
      optin_sms_ind: true,
      citizenship_type: '1',
      citizenship_type_desc: 'U.S. citizen or U.S. national',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await answersOf(cookie)).toMatchObject({
      gender: 'F',
      gender_desc: 'Female',
      birth_date: '2000-02-29',
      entry_term: entryTerm(),
      hs_attended_from_year: '2014',
      optin_sms_ind: true,
    });
    const cleared = await call(cookie, 'PUT', '/api/answer', { gender: '', birth_date: '' });
    expect(cleared.statusCode).toBe(200);
    expect(await answersOf(cookie)).toMatchObject({ gender: '', gender_desc: '', birth_date: '' });
  });

  it('saves a school picked from a list whose state and country the form does not offer', async () => {
    await importLookupCsv(
      testDatabaseOf(app),
      'hs_ceeb',
      'ceeb,name,city,state,zip,country\n' +
        '990001,Pohnpei Island High School,Kolonia,FM,96941,USA\n' +
        '990002,Lycee Atlantis,Atlantis,ZZ,12345,ATL\n',
    );
    const { cookie } = await applicant();
    const binding = resolveModel(applicationModel, {
      answers: {},
      addAnother: {},
      tabs: {},
      isLoggedIn: true,
    }).find((place) => place.key === 'hs_name')?.field.lookup as LookupBinding;
    for (const id of ['990001', '990002']) {
      const found = await app.inject({ url: `/lookup/find?id=${id}&category=hs_ceeb` });
      expect(found.statusCode, found.body).toBe(200);
      const picked = answersFromRecord(
        found.json<LookupRecord>(),
        binding,
        'hs_',
        choicesOfModel(applicationModel),
      );
      const saved = await call(cookie, 'PUT', '/api/answer', picked);
      expect(saved.statusCode, saved.body).toBe(200);
    }
    expect(await answersOf(cookie)).toMatchObject({
      hs_name: 'Lycee Atlantis',
      hs_zip: '12345',
      hs_state: '',
      hs_state_desc: '',
      hs_country: '',
      hs_country_desc: '',
    });
  });

  it('refuses at submit answers stored before these checks, naming each key', async () => {
    const { email, cookie } = await applicant();
    const saved = await call(cookie, 'PUT', '/api/answer', validApplicationAnswers());
    expect(saved.statusCode, saved.body).toBe(200);
    await storeDirectly(email, {
      gender: 'ZZZ',
      entry_term: 'FA1999',
      entry_term_desc: 'Fall 1999',
      birth_date: '2023-02-30',
      hs_attended_from_year: '1900',
    });
    const refused = await call(cookie, 'POST', '/api/submit');
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      message: ERROR_SUMMARY_TITLE,
      errors: {
        gender: [ANSWER_MESSAGES.notAnOption],
        entry_term: [ANSWER_MESSAGES.notAnOption],
        birth_date: [ABOUT_MESSAGES.birthDate],
        hs_attended_from_year: [ANSWER_MESSAGES.notAnOption],
      },
    });
    // Still open: the applicant can choose again and submit.
    const fixed = await call(cookie, 'PUT', '/api/answer', {
      gender: 'F',
      entry_term: entryTerm(),
      birth_date: '2000-05-15',
      hs_attended_from_year: '2014',
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect((await call(cookie, 'POST', '/api/submit')).statusCode).toBe(200);
  });

  it('refuses at submit a file answer without a completed document', async () => {
    const { email, cookie } = await applicant();
    await call(cookie, 'PUT', '/api/answer', validApplicationAnswers());
    await storeDirectly(email, { hs_transcript: 'ANSWERED' });
    const missing = await call(cookie, 'POST', '/api/submit');
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toEqual({ hs_transcript: [ANSWER_MESSAGES.missingDocument] });

    const document = {
      accountId: sql`${accountOf(email)}`,
      answerKey: 'hs_transcript',
      fileKey: `${email}/transcript`,
      fileName: 'transcript.pdf',
      fileSize: 1000,
    };
    for (const status of ['UNPROCESSED', 'IN_PROGRESS', 'FAILED'] as const) {
      await testDatabaseOf(app).execute(
        sql`insert into document_answers (account_id, answer_key, file_key, file_name, file_size, status)
            values (${document.accountId}, ${document.answerKey}, ${document.fileKey},
                    ${document.fileName}, ${document.fileSize}, ${status})
            on conflict (account_id, answer_key) do update set status = excluded.status`,
      );
      const pending = await call(cookie, 'POST', '/api/submit');
      expect(pending.statusCode, status).toBe(422);
      expect(pending.json().errors, status).toEqual({
        hs_transcript: [ANSWER_MESSAGES.missingDocument],
      });
    }
    await testDatabaseOf(app).execute(
      // A key of the storage's shape with no object behind it: the receipt records it missing.
      sql`update document_answers
          set status = 'COMPLETED', pdf_key = account_id::text || '/00000000-0000-4000-8000-000000000000'
          where account_id = ${accountOf(email)}`,
    );
    expect((await call(cookie, 'POST', '/api/submit')).statusCode).toBe(200);
  });

  it('submits a complete application', async () => {
    const { cookie } = await applicant();
    const saved = await call(cookie, 'PUT', '/api/answer', validApplicationAnswers());
    expect(saved.statusCode, saved.body).toBe(200);
    const submitted = await call(cookie, 'POST', '/api/submit');
    expect(submitted.statusCode, submitted.body).toBe(200);
  });
});
