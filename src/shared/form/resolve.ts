import { ADD_ANOTHER_DEFAULT } from '../constants';
import { evaluate, type KeyResolver } from './conditions';
import {
  type Answers,
  type Block,
  type ConditionExpr,
  courseworkAnswerField,
  DESC_SUFFIX,
  type Field,
  type FormModel,
  type FormState,
  type Item,
  type Page,
  type Repeat,
  type Switch,
  storesDesc,
  type Tabs,
} from './model';
import {
  type Branch,
  type ItemPlace,
  keyAt,
  type PathStep,
  type ResolvedInstance,
  rootPlace,
  walkItems,
} from './traverse';

export type { ResolvedInstance } from './traverse';

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
  /** The containers around the place, outermost first: tells apart places of one key. */
  path: readonly PathStep[];
}

/** What the walk carries down: whether the content is shown, and the titled block around it. */
interface Shown {
  visible: boolean;
  groupId: string | null;
}

export function repeatCount(repeat: Repeat, addAnother: FormState['addAnother']): number {
  const stored = addAnother[repeat.id] ?? ADD_ANOTHER_DEFAULT;
  return Math.min(Math.max(Math.trunc(stored), 1), repeat.instances.length);
}

export function chosenTab(tabs: Tabs, state: Pick<FormState, 'tabs' | 'isLoggedIn'>): string {
  const chosen = state.isLoggedIn ? state.tabs[tabs.id] : undefined;
  return chosen && tabs.tabs.some((tab) => tab.id === chosen) ? chosen : tabs.defaultTab;
}

/** Whether a branch of a shown item is shown too, for this state. */
function branchShown(
  branch: Branch,
  owner: Item,
  place: ItemPlace,
  state: FormState,
  outer: Shown,
): Shown {
  const holds = (expr: ConditionExpr | undefined) =>
    outer.visible && evaluate(expr, state.answers, place.resolveKey);
  const step = branch.step;
  switch (step.kind) {
    case 'reveals':
    case 'optionContent': {
      const field = owner as Field;
      const value = state.answers[keyAt(place, field.key)];
      const fieldShown = holds(field.showWhen);
      const opened = step.kind === 'reveals' ? Boolean(value) : String(value ?? '') === step.value;
      return { ...outer, visible: fieldShown && opened };
    }
    case 'block': {
      const block = owner as Block;
      return { visible: holds(block.showWhen), groupId: block.title ? block.id : outer.groupId };
    }
    case 'instance': {
      const repeat = owner as Repeat;
      const count = repeatCount(repeat, state.addAnother);
      return { ...outer, visible: holds(repeat.showWhen) && step.index < count };
    }
    case 'tab': {
      const tabs = owner as Tabs;
      return { ...outer, visible: holds(tabs.showWhen) && step.tabId === chosenTab(tabs, state) };
    }
    case 'case': {
      // Grouped conditions: only the first case that holds is shown.
      const first = (owner as Switch).cases.findIndex((candidate) => holds(candidate.when));
      return { ...outer, visible: step.index === first };
    }
  }
}

/** Every place of every field of a page, with visibility for this state. */
export function resolvePage(page: Page, state: FormState): ResolvedField[] {
  const out: ResolvedField[] = [];
  walkItems<Shown>(
    page.items,
    rootPlace(page),
    {
      item(shape, place, shown) {
        if (shape.kind !== 'field' && shape.kind !== 'coursework') return;
        const item = shape.kind === 'field' ? shape : courseworkAnswerField(shape);
        out.push({
          key: keyAt(place, item.key),
          field: item,
          page,
          instance: place.instance,
          groupId: shown.groupId,
          visible: shown.visible && evaluate(item.showWhen, state.answers, place.resolveKey),
          resolveKey: place.resolveKey,
          path: place.path,
        });
      },
      branch: (branch, owner, place, shown) => branchShown(branch, owner, place, state, shown),
    },
    { visible: true, groupId: null },
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
  return clearHiddenAnswers(model, state).patch;
}

/**
 * `hiddenAnswersPatch` with the model resolved for the answers it leaves (`resolveModel` of the
 * answers with the patch laid over them), for a caller that goes on to validate them: the model
 * is then resolved once less.
 */
export function clearHiddenAnswers(
  model: FormModel,
  state: FormState,
): { patch: Answers; resolved: ResolvedField[] } {
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
    if (!changed) return { patch, resolved };
    answers = { ...answers, ...patch };
  }
  return { patch, resolved: resolveModel(model, { ...state, answers }) };
}
