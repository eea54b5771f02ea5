import { describe, expect, it, vi } from 'vitest';
import { applicationModel } from '../../shared/application/application-model';
import type { FormModel } from '../../shared/form/model';
import { countryField, regionField } from '../../shared/test/fixture-model';
import { AnswerStore } from './answer-store';
import { createLocalCopy, type StorageLike } from './local-copy';
import { indexModel } from './model-index';

function memoryStorage(): StorageLike & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => {
      data.set(key, value);
    },
    removeItem: (key) => {
      data.delete(key);
    },
  };
}

const application = indexModel(applicationModel);

function accountStore(answers = {}) {
  const store = new AnswerStore();
  store.setModel(application);
  store.startSession({ id: 'ada#1', mode: 'account', answers });
  return store;
}

/** A conditional dropdown that follows a country, and content shown by grouped conditions. */
const dependentModel: FormModel = {
  pages: [
    {
      id: 'p',
      route: '/about',
      title: 'P',
      items: [
        countryField,
        regionField,
        {
          kind: 'switch',
          id: 'grouped',
          cases: [
            {
              when: { valueKey: 'country', operator: 'equals', target: 'USA' },
              items: [{ kind: 'field', key: 'ssn_note', widget: 'text', label: 'Note' }],
            },
            {
              when: { valueKey: 'country', operator: 'answered' },
              items: [
                { kind: 'field', key: 'ssn_note', widget: 'text', label: 'Note' },
                { kind: 'field', key: 'visa_note', widget: 'text', label: 'Visa' },
              ],
            },
          ],
        },
      ],
    },
  ],
};

describe('AnswerStore', () => {
  it('stores the chosen label in {key}_desc for selects and radios', () => {
    const store = accountStore();
    store.set('gender', 'F');
    store.set('first_gen', 'Y');
    store.set('first_name', 'Ada');
    expect(store.getAll()).toEqual({
      gender: 'F',
      gender_desc: 'Female',
      first_gen: 'Y',
      first_gen_desc: 'Yes',
      first_name: 'Ada',
    });
    store.set('gender', '');
    expect(store.get('gender_desc')).toBe('');
  });

  it('clears the answers of content that a change hides, in the same update', () => {
    const store = accountStore();
    store.set('mailing_addr_same_as_perm_addr', 'N');
    store.set('mailing_city', 'Tampa');
    store.set('mailing_country', 'USA');
    const changes: string[][] = [];
    store.onChange((keys) => changes.push([...keys]));
    store.set('mailing_addr_same_as_perm_addr', 'Y');
    expect(store.get('mailing_city')).toBe('');
    expect(store.get('mailing_country_desc')).toBe('');
    expect(changes).toHaveLength(1);
    expect(changes[0]).toEqual(
      expect.arrayContaining([
        'mailing_addr_same_as_perm_addr',
        'mailing_city',
        'mailing_country',
        'mailing_country_desc',
      ]),
    );
  });

  it('keeps a key that another shown case also shows (grouped conditions)', () => {
    const store = new AnswerStore();
    store.setModel(indexModel(dependentModel));
    store.startSession({ id: 'x', mode: 'account', answers: {} });
    store.set('country', 'CAN');
    store.set('ssn_note', 'kept');
    store.set('visa_note', 'cleared later');
    store.set('country', 'USA');
    expect(store.get('ssn_note')).toBe('kept');
    expect(store.get('visa_note')).toBe('');
  });

  it('clears a conditional dropdown and its label when its controller changes', () => {
    const store = new AnswerStore();
    store.setModel(indexModel(dependentModel));
    store.startSession({ id: 'x', mode: 'account', answers: {} });
    store.set('country', 'USA');
    store.set('region', 'FL');
    expect(store.get('region_desc')).toBe('Florida');
    store.set('country', 'USA');
    expect(store.get('region')).toBe('FL');
    store.set('country', 'CAN');
    expect([store.get('region'), store.get('region_desc')]).toEqual(['', '']);
  });

  it('clears the hidden tab when the tab changes, and hides instances above the count', () => {
    const store = accountStore({ personal_statement_essay: 'My essay', course_title: 'x' });
    store.setContainers({ tabs: {}, addAnother: { military_branches: 2 } });
    store.set('military_service', 'Y');
    store.set('military_branch_2_name', 'ARMY');
    store.setTab('personal_statement', 'upload');
    expect(store.get('personal_statement_essay')).toBe('');
    store.setRepeatCount('military_branches', 1);
    expect(store.get('military_branch_2_name')).toBe('');
  });

  it('tracks changed keys as dirty until a save takes them, and gives failed ones back', () => {
    const store = accountStore({ first_name: 'Ada' });
    expect(store.hasDirty()).toBe(false);
    store.set('first_name', 'Ada');
    expect(store.hasDirty()).toBe(false);
    store.set('last_name', 'Lovelace');
    store.set('gender', 'F');
    const patch = store.takeDirty();
    expect(patch).toEqual({ last_name: 'Lovelace', gender: 'F', gender_desc: 'Female' });
    expect(store.hasDirty()).toBe(false);
    store.set('last_name', 'Byron');
    store.returnDirty(patch);
    expect(store.takeDirty()).toEqual({ last_name: 'Byron', gender: 'F', gender_desc: 'Female' });
  });

  it('never marks a file answer for saving: only the server sets it', () => {
    const storage = memoryStorage();
    const copy = createLocalCopy('portal:unsaved:ada', storage);
    const store = new AnswerStore();
    store.setModel(application);
    store.startSession({
      id: 'ada#1',
      mode: 'account',
      answers: { personal_statement_doc: 'ANSWERED', hs_transcript: 'ANSWERED' },
      tabs: { personal_statement: 'upload' },
      localCopy: copy,
      // Left by a closed tab of an earlier version of the form.
      dirtyKeys: ['hs_transcript'],
    });
    store.setTab('personal_statement', 'write');
    expect(store.get('personal_statement_doc')).toBe('');
    store.set('first_name', 'Ada');
    expect(store.takeDirty()).toEqual({ first_name: 'Ada' });
    expect(copy.load()).toEqual({ first_name: 'Ada' });
  });

  it('sends a choice and its label together, whichever of them changed', () => {
    const store = accountStore({ gender: 'F', gender_desc: 'Old label' });
    store.setMany({ gender_desc: 'Female' });
    expect(store.takeDirty()).toEqual({ gender: 'F', gender_desc: 'Female' });
    store.setMany({ gender: 'M' });
    expect(store.takeDirty()).toEqual({ gender: 'M', gender_desc: 'Female' });
  });

  it('notifies only the listeners of the keys that changed', () => {
    const store = accountStore();
    const firstName = vi.fn();
    const lastName = vi.fn();
    store.subscribeKey('first_name', firstName);
    store.subscribeKey('last_name', lastName);
    store.set('first_name', 'A');
    store.set('first_name', 'Ad');
    expect(firstName).toHaveBeenCalledTimes(2);
    expect(lastName).not.toHaveBeenCalled();
  });

  it('applies an answer given for later once the frame is drawn, the latest of each key', () => {
    vi.useFakeTimers();
    try {
      const store = accountStore();
      const listener = vi.fn();
      store.subscribeKey('college_coursework', listener);
      store.setSoon('college_coursework', () => 'first');
      store.setSoon('college_coursework', () => 'second');
      expect(store.isPending('college_coursework')).toBe(true);
      expect(store.get('college_coursework')).toBeUndefined();
      expect(listener).not.toHaveBeenCalled();
      vi.runAllTimers();
      expect(store.isPending('college_coursework')).toBe(false);
      expect(store.get('college_coursework')).toBe('second');
      expect(listener).toHaveBeenCalledTimes(1);
      expect(store.takeDirty()).toEqual({ college_coursework: 'second' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('applies an answer given for later before anything outside rendering reads the answers', () => {
    const storage = memoryStorage();
    const store = new AnswerStore();
    store.setModel(application);
    store.startSession({
      id: 'ada#1',
      mode: 'account',
      answers: {},
      localCopy: createLocalCopy('unsaved', storage),
    });
    store.setSoon('college_coursework', () => 'typed');
    expect(store.hasDirty()).toBe(true);
    store.setSoon('college_coursework', () => 'typed more');
    expect(store.takeDirty()).toEqual({ college_coursework: 'typed more' });
    store.setSoon('college_coursework', () => 'before the page is left');
    store.flushLocalCopy();
    expect(JSON.parse(storage.data.get('unsaved') ?? '{}')).toMatchObject({
      college_coursework: 'before the page is left',
    });
    store.setSoon('college_coursework', () => 'before another answer');
    store.set('first_name', 'Ada');
    expect(store.takeDirty()).toEqual({
      college_coursework: 'before another answer',
      first_name: 'Ada',
    });
  });

  it('works a derived value out once per state of the answers, whoever asks for it', () => {
    const store = accountStore({ first_name: 'Ada' });
    const key = {};
    const compute = vi.fn(
      (state: { answers: Record<string, unknown> }) => state.answers.first_name,
    );
    expect(store.derived(key, compute)).toBe('Ada');
    expect(store.derived(key, compute)).toBe('Ada');
    expect(compute).toHaveBeenCalledTimes(1);
    store.set('first_name', 'Grace');
    expect(store.derived(key, compute)).toBe('Grace');
    expect(compute).toHaveBeenCalledTimes(2);
    // Another key is another computation, kept apart.
    expect(store.derived({}, () => 'other')).toBe('other');
    expect(store.derived(key, compute)).toBe('Grace');
    expect(compute).toHaveBeenCalledTimes(2);
  });

  it('keeps an anonymous draft in browser storage, merged per key, and reads it back', () => {
    const storage = memoryStorage();
    const copy = createLocalCopy('portal:answers', storage);
    const store = new AnswerStore();
    store.setModel(application);
    store.startSession({
      id: 'anonymous',
      mode: 'anonymous',
      answers: copy.load(),
      localCopy: copy,
    });
    store.set('first_name', 'Ada');
    store.set('optin_sms_ind', true);
    // Another tab wrote a different key meanwhile: both stay.
    storage.setItem('portal:answers', JSON.stringify({ ...copy.load(), last_name: 'Lovelace' }));
    store.set('gender', 'F');
    expect(store.hasDirty()).toBe(false);
    const reloaded = new AnswerStore();
    reloaded.startSession({ id: 'anonymous', mode: 'anonymous', answers: copy.load() });
    expect(reloaded.getAll()).toEqual({
      first_name: 'Ada',
      optin_sms_ind: true,
      last_name: 'Lovelace',
      gender: 'F',
      gender_desc: 'Female',
    });
  });

  it('keeps a signed-in student’s unsaved changes in browser storage until saved', () => {
    const storage = memoryStorage();
    const copy = createLocalCopy('portal:unsaved:ada', storage);
    const store = new AnswerStore();
    store.setModel(application);
    store.startSession({ id: 'ada#1', mode: 'account', answers: {}, localCopy: copy });
    store.set('first_name', 'Ada');
    store.set('last_name', 'Lovelace');
    const patch = store.takeDirty();
    store.set('first_name', 'Augusta');
    store.markSaved(patch);
    // The saved last name is forgotten; the first name changed since, so it waits.
    expect(copy.load()).toEqual({ first_name: 'Augusta' });
  });

  it('starts over for another session and notifies every subscriber', () => {
    const store = accountStore({ first_name: 'Ada' });
    const listener = vi.fn();
    store.subscribeKey('first_name', listener);
    store.set('last_name', 'x');
    store.startSession({ id: 'anonymous', mode: 'anonymous', answers: {} });
    expect(listener).toHaveBeenCalled();
    expect(store.get('first_name')).toBeUndefined();
    expect(store.hasDirty()).toBe(false);
    expect(store.mode).toBe('anonymous');
  });

  it('ignores what is not an answer when reading browser storage', () => {
    const storage = memoryStorage();
    storage.setItem('k', JSON.stringify({ a: 'x', b: true, c: 3, d: null }));
    expect(createLocalCopy('k', storage).load()).toEqual({ a: 'x', b: true });
    storage.setItem('k', 'not json');
    expect(createLocalCopy('k', storage).load()).toEqual({});
  });
});
