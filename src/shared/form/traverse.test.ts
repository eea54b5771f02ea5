import { describe, expect, it } from 'vitest';
import type { Field, FormModel, Item, Page } from './model';
import {
  branchesOf,
  enterBranch,
  type ItemPlace,
  inFirstInstance,
  keyAt,
  rootPlace,
  visibilityConditions,
  walkItems,
  walkModel,
} from './traverse';

const text = (key: string): Field => ({ kind: 'field', key, widget: 'text', label: key });

const items: readonly Item[] = [
  {
    kind: 'field',
    key: 'military',
    widget: 'radio',
    label: 'Military service',
    options: [
      { value: 'Y', label: 'Yes' },
      { value: 'N', label: 'No' },
    ],
    optionContent: { Y: [text('rank')] },
  },
  {
    kind: 'repeat',
    id: 'branches',
    addLabel: 'branch',
    instances: [
      { prefix: 'branch_', label: 'Branch 1' },
      { prefix: 'branch_2_', label: 'Branch 2' },
    ],
    items: [
      {
        kind: 'block',
        id: 'service',
        items: [
          text('name'),
          { ...text('end'), showWhen: { valueKey: '$name', operator: 'answered' } },
        ],
      },
    ],
  },
  {
    kind: 'tabs',
    id: 'statement',
    label: 'Statement',
    defaultTab: 'write',
    tabs: [
      { id: 'write', label: 'Write', items: [text('essay')] },
      { id: 'upload', label: 'Upload', items: [text('essay_file')] },
    ],
  },
  {
    kind: 'switch',
    id: 'residency',
    cases: [
      { when: { valueKey: 'military', operator: 'equals', target: 'Y' }, items: [text('base')] },
      { when: { valueKey: 'military', operator: 'equals', target: 'N' }, items: [text('base')] },
    ],
  },
  {
    kind: 'field',
    key: 'confirm',
    widget: 'confirmCheckbox',
    label: 'Confirm',
    reveals: [text('signature')],
  },
];

const page: Page = { id: 'about', route: '/about', title: 'About', items };

function visits(from: readonly Item[], start: ItemPlace) {
  const seen: Array<{ key: string; instance: string | null; path: string }> = [];
  walkItems(
    from,
    start,
    {
      item(item, place) {
        if (item.kind !== 'field') return;
        seen.push({
          key: keyAt(place, item.key),
          instance: place.instance?.label ?? null,
          path: place.path
            .map((step) => `${step.kind}:${'id' in step ? step.id : step.key}`)
            .join('/'),
        });
      },
    },
    null,
  );
  return seen;
}

describe('the model traversal', () => {
  it('visits every field in model order, every instance, tab and case, with its full key', () => {
    expect(visits(items, rootPlace(page)).map((visit) => visit.key)).toEqual([
      'military',
      'rank',
      'branch_name',
      'branch_end',
      'branch_2_name',
      'branch_2_end',
      'essay',
      'essay_file',
      'base',
      'base',
      'confirm',
      'signature',
    ]);
  });

  it('gives each place its repeat instance and the path of containers around it', () => {
    const seen = visits(items, rootPlace(page));
    expect(seen.find((visit) => visit.key === 'branch_2_end')).toEqual({
      key: 'branch_2_end',
      instance: 'Branch 2',
      path: 'instance:branches/block:service',
    });
    expect(seen.find((visit) => visit.key === 'rank')).toEqual({
      key: 'rank',
      instance: null,
      path: 'optionContent:military',
    });
  });

  it('resolves `$` keys to the same instance and other keys unchanged', () => {
    const repeat = items[1] as Item;
    const [, second] = branchesOf(repeat);
    if (!second) throw new Error('the repeat has two instances');
    const inside = enterBranch(second, rootPlace(page));
    expect(inside.resolveKey('$name')).toBe('branch_2_name');
    expect(inside.resolveKey('military')).toBe('military');
    expect(inside.instance).toEqual({
      repeatId: 'branches',
      index: 1,
      prefix: 'branch_2_',
      label: 'Branch 2',
    });
    expect(inFirstInstance(inside)).toBe(false);
    expect(inFirstInstance(rootPlace(page))).toBe(true);
  });

  it('carries what the visitor decides into each branch, and leaves out a branch it refuses', () => {
    const keys: string[] = [];
    walkItems<{ depth: number }>(
      items,
      rootPlace(page),
      {
        item(item, _place, carried) {
          if (item.kind === 'field') keys.push(`${item.key}@${carried.depth}`);
        },
        branch(branch, _owner, _place, carried) {
          if (branch.step.kind === 'tab' && branch.step.tabId !== 'write') return null;
          return { depth: carried.depth + 1 };
        },
      },
      { depth: 0 },
    );
    expect(keys).toContain('essay@1');
    expect(keys).not.toContain('essay_file@1');
    expect(keys).toContain('name@2');
  });

  it('walks loose items under a prefix, and every page of a model', () => {
    expect(visits([text('city')], rootPlace(null, 'hs_2_'))).toEqual([
      { key: 'hs_2_city', instance: null, path: '' },
    ]);
    const model: FormModel = {
      pages: [page, { id: 'more', route: '/more', title: 'More', items: [text('last')] }],
    };
    const pages: string[] = [];
    walkModel(
      model,
      {
        item(item, place) {
          if (item.kind === 'field') pages.push(`${place.page?.id}:${item.key}`);
        },
      },
      null,
    );
    expect(pages.at(0)).toBe('about:military');
    expect(pages.at(-1)).toBe('more:last');
  });

  it('names the conditions each item is shown by: its own, or the cases of a switch', () => {
    const [radio, repeat, , grouped] = items;
    if (!radio || !repeat || !grouped) throw new Error('the items are there');
    expect(visibilityConditions(radio)).toEqual([]);
    expect(visibilityConditions(grouped)).toEqual([
      { valueKey: 'military', operator: 'equals', target: 'Y' },
      { valueKey: 'military', operator: 'equals', target: 'N' },
    ]);
    const [end] = branchesOf(repeat).flatMap((branch) => branchesOf(branch.items[0] as Item));
    expect(end?.items.map((item) => visibilityConditions(item))).toEqual([
      [],
      [{ valueKey: '$name', operator: 'answered' }],
    ]);
  });
});
