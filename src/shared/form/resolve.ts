import { ADD_ANOTHER_DEFAULT } from '../constants';
import { evaluate, type KeyResolver } from './conditions';
import {
  type Answers,
  DESC_SUFFIX,
  type Field,
  type FormModel,
  type FormState,
  type Item,
  type Page,
  type Repeat,
  type RepeatInstance,
  storesDesc,
  type Tabs,
} from './model';

export interface ResolvedInstance {
  repeatId: string;
  index: number;
  prefix: string;
  label: string;
}

/** One place a field stands in the model, with its full key and whether it is shown now. */
export interface ResolvedField {
  key: string;
  field: Field;
  page: Page;
  instance: ResolvedInstance | null;
  /** The titled block (group) the field belongs to, if any. */
  groupId: string | null;
  visible: boolean;
  resolveKey: KeyResolver;
}

interface WalkContext {
  page: Page;
  visible: boolean;
  instance: ResolvedInstance | null;
  groupId: string | null;
  resolveKey: KeyResolver;
}

export function repeatCount(repeat: Repeat, addAnother: FormState['addAnother']): number {
  const stored = addAnother[repeat.id] ?? ADD_ANOTHER_DEFAULT;
  return Math.min(Math.max(Math.trunc(stored), 1), repeat.instances.length);
}

export function chosenTab(tabs: Tabs, state: Pick<FormState, 'tabs' | 'isLoggedIn'>): string {
  const chosen = state.isLoggedIn ? state.tabs[tabs.id] : undefined;
  return chosen && tabs.tabs.some((tab) => tab.id === chosen) ? chosen : tabs.defaultTab;
}

function instanceResolver(instance: RepeatInstance, outer: KeyResolver): KeyResolver {
  return (key) => (key.startsWith('$') ? `${instance.prefix}${key.slice(1)}` : outer(key));
}

function walkItems(
  items: readonly Item[],
  state: FormState,
  context: WalkContext,
  out: ResolvedField[],
): void {
  for (const item of items) walkItem(item, state, context, out);
}

function walkItem(item: Item, state: FormState, context: WalkContext, out: ResolvedField[]): void {
  const shown = (expr: Parameters<typeof evaluate>[0]) =>
    context.visible && evaluate(expr, state.answers, context.resolveKey);
  switch (item.kind) {
    case 'field': {
      const key = context.instance ? `${context.instance.prefix}${item.key}` : item.key;
      const visible = shown(item.showWhen);
      out.push({
        key,
        field: item,
        page: context.page,
        instance: context.instance,
        groupId: context.groupId,
        visible,
        resolveKey: context.resolveKey,
      });
      const value = state.answers[key];
      if (item.reveals)
        walkItems(item.reveals, state, { ...context, visible: visible && Boolean(value) }, out);
      for (const [optionValue, content] of Object.entries(item.optionContent ?? {})) {
        walkItems(
          content,
          state,
          { ...context, visible: visible && String(value ?? '') === optionValue },
          out,
        );
      }
      return;
    }
    case 'block':
      walkItems(
        item.items,
        state,
        {
          ...context,
          visible: shown(item.showWhen),
          groupId: item.title ? item.id : context.groupId,
        },
        out,
      );
      return;
    case 'repeat': {
      const visible = shown(item.showWhen);
      const count = repeatCount(item, state.addAnother);
      item.instances.forEach((instance, index) => {
        walkItems(
          item.items,
          state,
          {
            ...context,
            visible: visible && index < count,
            instance: { repeatId: item.id, index, prefix: instance.prefix, label: instance.label },
            resolveKey: instanceResolver(instance, context.resolveKey),
          },
          out,
        );
      });
      return;
    }
    case 'tabs': {
      const visible = shown(item.showWhen);
      const chosen = chosenTab(item, state);
      for (const tab of item.tabs)
        walkItems(tab.items, state, { ...context, visible: visible && tab.id === chosen }, out);
      return;
    }
    case 'switch': {
      let matched = false;
      for (const branch of item.cases) {
        const holds = !matched && shown(branch.when);
        if (holds) matched = true;
        walkItems(branch.items, state, { ...context, visible: holds }, out);
      }
      return;
    }
  }
}

/** Every place of every field of a page, with visibility for this state. */
export function resolvePage(page: Page, state: FormState): ResolvedField[] {
  const out: ResolvedField[] = [];
  walkItems(
    page.items,
    state,
    { page, visible: true, instance: null, groupId: null, resolveKey: (key) => key },
    out,
  );
  return out;
}

export function resolveModel(model: FormModel, state: FormState): ResolvedField[] {
  return model.pages.flatMap((page) => resolvePage(page, state));
}

/** Answer keys a field owns: its own and its `_desc` companion. */
export function ownedKeys(resolved: Pick<ResolvedField, 'key' | 'field'>): string[] {
  return storesDesc(resolved.field)
    ? [resolved.key, `${resolved.key}${DESC_SUFFIX}`]
    : [resolved.key];
}

/** Keys shown anywhere: a key in several places (grouped conditions) is kept if any place shows it. */
export function visibleKeys(resolved: readonly ResolvedField[]): Set<string> {
  const keys = new Set<string>();
  for (const place of resolved)
    if (place.visible) for (const key of ownedKeys(place)) keys.add(key);
  return keys;
}

const MAX_CLEARING_PASSES = 10;

/**
 * Hidden content clears its answers (spec 001 section 4). Clearing can hide more content, so it
 * repeats until nothing changes. Returns the patch of keys set to '' (empty answer).
 */
export function hiddenAnswersPatch(model: FormModel, state: FormState): Answers {
  const patch: Answers = {};
  let answers = state.answers;
  for (let pass = 0; pass < MAX_CLEARING_PASSES; pass++) {
    const resolved = resolveModel(model, { ...state, answers });
    const shown = visibleKeys(resolved);
    let changed = false;
    for (const place of resolved) {
      for (const key of ownedKeys(place)) {
        const value = answers[key];
        if (!shown.has(key) && value !== undefined && value !== '' && value !== false) {
          patch[key] = '';
          changed = true;
        }
      }
    }
    if (!changed) break;
    answers = { ...answers, ...patch };
  }
  return patch;
}
