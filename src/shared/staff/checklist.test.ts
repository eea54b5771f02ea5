import { describe, expect, it } from 'vitest';
import { applicationModel } from '../application/application-model';
import type { FormModel } from '../form/model';
import { resolveModel } from '../form/resolve';
import { tenantConfigSchema } from '../tenant/tenant-config';
import { CHECKLIST_ITEM_KEY_PATTERN } from './application-api';
import {
  APPLICATION_CHECKLIST_SOURCES,
  type ChecklistMarkRecord,
  checklistOf,
  deriveChecklistItems,
} from './checklist';

/** A model with a file question only some answers ask for, inside a repeat and a tab too. */
const model: FormModel = {
  pages: [
    {
      id: 'one',
      route: '/one',
      title: 'One',
      items: [
        {
          kind: 'field',
          key: 'licensed',
          widget: 'radio',
          label: 'Licensed?',
          options: [
            { value: 'Y', label: 'Yes' },
            { value: 'N', label: 'No' },
          ],
        },
        {
          kind: 'field',
          key: 'license_doc',
          widget: 'file',
          label: 'Your license',
          showWhen: { valueKey: 'licensed', operator: 'equals', target: 'Y' },
        },
        {
          kind: 'repeat',
          id: 'colleges',
          addLabel: 'college',
          instances: [
            { prefix: 'college_', label: 'College 1' },
            { prefix: 'college_2_', label: 'College 2' },
          ],
          items: [{ kind: 'field', key: 'name', widget: 'text', label: 'College name' }],
        },
        {
          kind: 'tabs',
          id: 'statement',
          label: 'Statement',
          defaultTab: 'write',
          tabs: [
            {
              id: 'write',
              label: 'Write',
              items: [{ kind: 'field', key: 'essay', widget: 'textarea', label: 'Essay' }],
            },
            {
              id: 'upload',
              label: 'Upload',
              items: [{ kind: 'field', key: 'essay_doc', widget: 'file', label: 'Essay file' }],
            },
          ],
        },
        {
          kind: 'field',
          key: 'fee_waiver',
          widget: 'radio',
          label: 'Waiver?',
          options: [
            { value: 'Y', label: 'Yes' },
            { value: 'N', label: 'No' },
          ],
        },
      ],
    },
  ],
};

const keys = (items: { key: string }[]) => items.map((item) => item.key);

describe('the items of an application', () => {
  it('asks for a file question only where the answers show it', () => {
    expect(keys(deriveChecklistItems(model, { answers: {} }))).toEqual(['fee']);
    expect(keys(deriveChecklistItems(model, { answers: { licensed: 'N' } }))).toEqual(['fee']);
    const items = deriveChecklistItems(model, { answers: { licensed: 'Y' } });
    expect(items[0]).toEqual({
      key: 'document:license_doc',
      kind: 'document',
      label: 'Your license',
      answer_key: 'license_doc',
    });
  });

  it('follows the chosen tab', () => {
    expect(
      keys(deriveChecklistItems(model, { answers: {}, tabs: { statement: 'upload' } })),
    ).toEqual(['document:essay_doc', 'fee']);
  });

  it('asks for an official transcript of each college named in a shown instance', () => {
    const answers = { college_name: ' Valley College ', college_2_name: 'Hill College' };
    const one = deriveChecklistItems(model, { answers });
    // The second college's answers are hidden (and cleared) until the applicant adds it.
    expect(one.filter((item) => item.kind === 'transcript')).toEqual([
      {
        key: 'transcript:1',
        kind: 'transcript',
        label: 'Official transcript: Valley College',
        answer_key: null,
      },
    ]);
    const two = deriveChecklistItems(model, { answers, addAnother: { colleges: 2 } });
    expect(two.filter((item) => item.kind === 'transcript').map((item) => item.label)).toEqual([
      'Official transcript: Valley College',
      'Official transcript: Hill College',
    ]);
    const unnamed = deriveChecklistItems(model, {
      answers: { college_2_name: 'Hill College' },
      addAnother: { colleges: 2 },
    });
    expect(keys(unnamed)).toEqual(['transcript:2', 'fee']);
  });

  it('asks for the fee, or names the waiver the applicant asked for', () => {
    const fee = (answers: Record<string, string>) =>
      deriveChecklistItems(model, { answers }).find((item) => item.key === 'fee')?.label;
    expect(fee({})).toBe('Application fee');
    expect(fee({ fee_waiver: 'N' })).toBe('Application fee');
    expect(fee({ fee_waiver: 'Y' })).toBe('Application fee waiver');
  });

  it("adds the tenant's items last", () => {
    const items = deriveChecklistItems(model, { answers: {} }, [
      { id: 'interview', label: 'Interview' },
      { id: 'portfolio-2', label: 'Portfolio review' },
    ]);
    expect(items.slice(1)).toEqual([
      { key: 'tenant:interview', kind: 'tenant', label: 'Interview', answer_key: null },
      { key: 'tenant:portfolio-2', kind: 'tenant', label: 'Portfolio review', answer_key: null },
    ]);
  });

  it('reads the application model where its sources say', () => {
    const sources = APPLICATION_CHECKLIST_SOURCES;
    const resolved = resolveModel(applicationModel, {
      answers: {},
      addAnother: {},
      tabs: {},
      isLoggedIn: true,
    });
    expect(
      resolved.some(
        (place) =>
          place.instance?.repeatId === sources.collegesRepeatId &&
          place.field.key === sources.collegeNameKey,
      ),
    ).toBe(true);
    const waiver = resolved.find((place) => place.key === sources.feeWaiverKey);
    expect(waiver?.field.options?.map((option) => option.value)).toContain(sources.feeWaiverValue);
  });

  it('gives the application model its documents, transcripts and fee', () => {
    const items = deriveChecklistItems(applicationModel, {
      answers: { college_name: 'Valley College', fee_waiver: 'Y' },
      tabs: { personal_statement: 'upload' },
    });
    expect(keys(items)).toEqual([
      'document:personal_statement_doc',
      'document:hs_transcript',
      'transcript:1',
      'fee',
    ]);
    expect(items.find((item) => item.key === 'fee')?.label).toBe('Application fee waiver');
    for (const item of items) expect(item.key).toMatch(CHECKLIST_ITEM_KEY_PATTERN);
  });
});

describe('the states of the items', () => {
  const items = deriveChecklistItems(model, { answers: { licensed: 'Y' } }, [
    { id: 'interview', label: 'Interview' },
  ]);
  const staffMark = (
    itemKey: string,
    state: ChecklistMarkRecord['state'],
    at = '2026-05-01T10:00:00Z',
  ): ChecklistMarkRecord => ({
    itemKey,
    state,
    setByType: 'staff',
    setById: '00000000-0000-4000-8000-000000000001',
    setByLabel: 'Ada Officer',
    setAt: at,
  });

  it('starts every item Awaiting', () => {
    const checklist = checklistOf(items, []);
    expect(checklist.missing).toBe(3);
    expect(checklist.items.every((item) => item.state === 'awaiting' && !item.set_by)).toBe(true);
  });

  it('takes a staff mark with who and when', () => {
    const checklist = checklistOf(items, [
      staffMark('fee', 'waived'),
      staffMark('gone', 'received'),
    ]);
    expect(checklist.items.find((item) => item.key === 'fee')).toMatchObject({
      state: 'waived',
      set_by: { type: 'staff', id: '00000000-0000-4000-8000-000000000001', label: 'Ada Officer' },
      set_at: '2026-05-01T10:00:00.000Z',
    });
    // A mark of an item the application no longer has counts for nothing.
    expect(checklist.missing).toBe(2);
  });

  it("counts an applicant's converted upload as Received, unless staff marked it since", () => {
    const completed = {
      license_doc: { status: 'COMPLETED' as const, updatedAt: '2026-05-02T00:00:00Z' },
    };
    const uploaded = checklistOf(items, [], completed).items[0];
    expect(uploaded).toMatchObject({
      state: 'received',
      set_by: { type: 'applicant', id: null, label: 'Applicant' },
      set_at: '2026-05-02T00:00:00.000Z',
    });
    const pending = {
      license_doc: { status: 'IN_PROGRESS' as const, updatedAt: '2026-05-02T00:00:00Z' },
    };
    expect(checklistOf(items, [], pending).items[0]?.state).toBe('awaiting');
    const later = staffMark('document:license_doc', 'awaiting', '2026-05-03T00:00:00Z');
    expect(checklistOf(items, [later], completed).items[0]?.state).toBe('awaiting');
    const earlier = staffMark('document:license_doc', 'awaiting', '2026-05-01T00:00:00Z');
    expect(checklistOf(items, [earlier], completed).items[0]?.state).toBe('received');
  });
});

describe("the tenant's checklist items", () => {
  const base = tenantConfigSchema.shape;
  it('are optional, and none by default', () => {
    expect(base.checklist_items.parse(undefined)).toEqual([]);
  });

  it('take ids of a-z, 0-9, _ and -, each once, and a label', () => {
    expect(base.checklist_items.parse([{ id: 'interview_1', label: ' Interview ' }])).toEqual([
      { id: 'interview_1', label: 'Interview' },
    ]);
    for (const bad of [
      [{ id: 'Interview', label: 'x' }],
      [{ id: '', label: 'x' }],
      [{ id: 'a'.repeat(41), label: 'x' }],
      [{ id: 'a:b', label: 'x' }],
      [{ id: 'a', label: '' }],
      [{ id: 'a', label: 'x', extra: 1 }],
      [
        { id: 'a', label: 'x' },
        { id: 'a', label: 'y' },
      ],
    ])
      expect(base.checklist_items.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });
});
