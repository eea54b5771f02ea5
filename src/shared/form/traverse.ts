/**
 * The one walk over the model's shape: pages → items → what each item holds. Every consumer of
 * the shape (visibility in `resolve.ts`, the model check, the server's container ids, the
 * browser's model index, the printable projection and the edit renderer) goes through
 * `branchesOf` and `enterBranch`, or through `walkItems` / `walkModel` built on them, so a place's
 * full key, repeat instance and `$` key resolver are worked out in one place only.
 *
 * Adding a container kind touches its type in `model.ts` (the `Item` union), the traversal (its
 * case in `branchesOf`: what it holds and how a place inside it differs from the place around it;
 * in `visibilityConditions`: the conditions it shows by; and, in `resolve.ts`, when each of its
 * branches is shown) and its renderers (the edit view in `web/form/items.tsx`, and `printable.ts`).
 * Each of those switches is exhaustive, so TypeScript names every place a new kind must be added;
 * nothing else walks the shape.
 */

import type { KeyResolver } from './conditions';
import type { ConditionExpr, FormModel, Item, Page, RepeatInstance, Tab } from './model';

/** A repeat instance where a field stands: the instance named in its messages and headings. */
export interface ResolvedInstance {
  repeatId: string;
  index: number;
  prefix: string;
  label: string;
}

/** One step from an item into what it holds, outermost first in `ItemPlace.path`. */
export type PathStep =
  | { kind: 'reveals'; key: string }
  | { kind: 'optionContent'; key: string; value: string }
  | { kind: 'block'; id: string }
  | { kind: 'instance'; id: string; index: number }
  | { kind: 'tab'; id: string; tabId: string }
  | { kind: 'case'; id: string; index: number };

/** Where an item stands: everything a view needs to name its keys and read its conditions. */
export interface ItemPlace {
  /** The page the walk started from; null when it started from loose items. */
  page: Page | null;
  /** Joined to every key here: the repeat instances' prefixes, or ''. */
  prefix: string;
  /** The innermost repeat instance, if any. */
  instance: ResolvedInstance | null;
  /** Turns a condition's key into a full answer key: `$name` is a key of the same instance. */
  resolveKey: KeyResolver;
  path: readonly PathStep[];
}

/** Part of what an item holds: a list of items and the step that leads into it. */
export type Branch =
  | { step: Extract<PathStep, { kind: 'reveals' }>; items: readonly Item[] }
  | { step: Extract<PathStep, { kind: 'optionContent' }>; items: readonly Item[] }
  | { step: Extract<PathStep, { kind: 'block' }>; items: readonly Item[] }
  | {
      step: Extract<PathStep, { kind: 'instance' }>;
      instance: RepeatInstance;
      items: readonly Item[];
    }
  | { step: Extract<PathStep, { kind: 'tab' }>; tab: Tab; items: readonly Item[] }
  | { step: Extract<PathStep, { kind: 'case' }>; when: ConditionExpr; items: readonly Item[] };

const sameKey: KeyResolver = (key) => key;

/** The place at the top of a page (or of loose items, under `prefix`). */
export function rootPlace(page: Page | null, prefix = ''): ItemPlace {
  return { page, prefix, instance: null, resolveKey: sameKey, path: [] };
}

/** What an item holds, in the model's order: every branch, whatever is shown now. */
export function branchesOf(item: Item): Branch[] {
  switch (item.kind) {
    case 'field': {
      const branches: Branch[] = [];
      if (item.reveals)
        branches.push({ step: { kind: 'reveals', key: item.key }, items: item.reveals });
      for (const [value, items] of Object.entries(item.optionContent ?? {}))
        branches.push({ step: { kind: 'optionContent', key: item.key, value }, items });
      return branches;
    }
    case 'block':
      return [{ step: { kind: 'block', id: item.id }, items: item.items }];
    case 'repeat':
      return item.instances.map((instance, index) => ({
        step: { kind: 'instance', id: item.id, index },
        instance,
        items: item.items,
      }));
    case 'tabs':
      return item.tabs.map((tab) => ({
        step: { kind: 'tab', id: item.id, tabId: tab.id },
        tab,
        items: tab.items,
      }));
    case 'switch':
      return item.cases.map((branch, index) => ({
        step: { kind: 'case', id: item.id, index },
        when: branch.when,
        items: branch.items,
      }));
    case 'coursework':
      // Its terms and rows are data of its one answer, not items.
      return [];
  }
}

/**
 * The conditions that decide whether an item or a part of it is shown: its `showWhen`, or a
 * switch's cases. What reads answers to show or hide (the model check, the browser's index of
 * controlling keys) takes them from here, so a new container kind is covered once.
 */
export function visibilityConditions(item: Item): ConditionExpr[] {
  switch (item.kind) {
    case 'field':
    case 'block':
    case 'repeat':
    case 'tabs':
    case 'coursework':
      return item.showWhen ? [item.showWhen] : [];
    case 'switch':
      return item.cases.map((branch) => branch.when);
  }
}

/** The `$` key resolver inside a repeat instance: `$name` is the instance's own `name`. */
export function instanceResolver(instance: RepeatInstance, outer: KeyResolver): KeyResolver {
  return (key) => (key.startsWith('$') ? `${instance.prefix}${key.slice(1)}` : outer(key));
}

/** The place inside a branch, from the place of the item that holds it. */
export function enterBranch(branch: Branch, outer: ItemPlace): ItemPlace {
  const path = [...outer.path, branch.step];
  if (branch.step.kind !== 'instance' || !('instance' in branch)) return { ...outer, path };
  const { instance } = branch;
  return {
    page: outer.page,
    // Inside an instance the keys are the instance's: `hs_` + `name` (the repeat's id is not part).
    prefix: instance.prefix,
    instance: {
      repeatId: branch.step.id,
      index: branch.step.index,
      prefix: instance.prefix,
      label: instance.label,
    },
    resolveKey: instanceResolver(instance, outer.resolveKey),
    path,
  };
}

/** The full answer key of a field standing at a place. */
export function keyAt(place: Pick<ItemPlace, 'prefix'>, key: string): string {
  return `${place.prefix}${key}`;
}

/**
 * A visit of every item. `item` sees each item where it stands; `branch` decides what the walk
 * carries into a branch (visibility, a group) from what it carried to the item holding it, or
 * returns `null` to leave that branch out. Without `branch`, every branch is walked with the same
 * carried value.
 */
export interface Visitor<T> {
  item?(item: Item, place: ItemPlace, carried: T): void;
  branch?(branch: Branch, owner: Item, place: ItemPlace, carried: T): T | null;
}

export function walkItems<T>(
  items: readonly Item[],
  place: ItemPlace,
  visitor: Visitor<T>,
  carried: T,
): void {
  for (const item of items) {
    visitor.item?.(item, place, carried);
    for (const branch of branchesOf(item)) {
      if (!visitor.branch) {
        walkItems(branch.items, enterBranch(branch, place), visitor, carried);
        continue;
      }
      const inner = visitor.branch(branch, item, place, carried);
      if (inner !== null) walkItems(branch.items, enterBranch(branch, place), visitor, inner);
    }
  }
}

/** Walks every page's items, in order. */
export function walkModel<T>(model: FormModel, visitor: Visitor<T>, carried: T): void {
  for (const page of model.pages) walkItems(page.items, rootPlace(page), visitor, carried);
}

/** Whether a place is in the first instance of every repeat around it: one visit per item. */
export function inFirstInstance(place: Pick<ItemPlace, 'path'>): boolean {
  return place.path.every((step) => step.kind !== 'instance' || step.index === 0);
}
