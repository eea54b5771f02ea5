import { choiceSource } from '../../shared/form/choices';
import { conditionKeys, type KeyResolver } from '../../shared/form/conditions';
import type {
  ConditionExpr,
  Field,
  FormModel,
  Item,
  OptionItem,
  RepeatInstance,
} from '../../shared/form/model';
import { resolveModel } from '../../shared/form/resolve';

/** One field of the model by its full answer key, with the resolver of `$` keys where it stands. */
export interface IndexedField {
  key: string;
  field: Field;
  resolveKey: KeyResolver;
}

/**
 * What the answer store needs to know about a model, worked out once per model: every field by
 * key, the keys whose answers decide what is shown (only a change to one of them can hide
 * something, so only then does the store run the clearing pass), and the conditional dropdowns
 * each controlling key resets.
 */
export interface ModelIndex {
  model: FormModel;
  fields: ReadonlyMap<string, IndexedField>;
  controllingKeys: ReadonlySet<string>;
  /**
   * The show/hide conditions that read each key. A change flips what is shown only if one of them
   * changes outcome; keys of fields with revealed content are not listed: their answer itself
   * decides, so a change to them is always checked.
   */
  conditionsByKey: ReadonlyMap<
    string,
    ReadonlyArray<{ expr: ConditionExpr; resolve: KeyResolver }>
  >;
  /** Controller key -> the keys of the conditional dropdowns that follow it. */
  dependentSelects: ReadonlyMap<string, readonly string[]>;
}

const EVERYTHING = { answers: {}, addAnother: {}, tabs: {}, isLoggedIn: true };

export function instanceResolver(instance: RepeatInstance, outer: KeyResolver): KeyResolver {
  return (key) => (key.startsWith('$') ? `${instance.prefix}${key.slice(1)}` : outer(key));
}

export function indexModel(model: FormModel): ModelIndex {
  const fields = new Map<string, IndexedField>();
  for (const place of resolveModel(model, EVERYTHING)) {
    if (!fields.has(place.key))
      fields.set(place.key, { key: place.key, field: place.field, resolveKey: place.resolveKey });
  }

  const controlling = new Set<string>();
  const dependents = new Map<string, string[]>();
  const conditionsByKey = new Map<string, Array<{ expr: ConditionExpr; resolve: KeyResolver }>>();
  const revealing = new Set<string>();
  const addCondition = (expr: ConditionExpr | undefined, resolve: KeyResolver) => {
    if (!expr) return;
    for (const key of new Set(conditionKeys(expr, resolve))) {
      controlling.add(key);
      const list = conditionsByKey.get(key) ?? [];
      list.push({ expr, resolve });
      conditionsByKey.set(key, list);
    }
  };
  const visit = (items: readonly Item[], resolve: KeyResolver, prefix: string) => {
    for (const item of items) {
      switch (item.kind) {
        case 'field': {
          const key = `${prefix}${item.key}`;
          addCondition(item.showWhen, resolve);
          if (item.reveals || item.optionContent) {
            controlling.add(key);
            revealing.add(key);
          }
          if (item.optionsFrom) {
            const controller = resolve(item.optionsFrom.controllerKey);
            dependents.set(controller, [...(dependents.get(controller) ?? []), key]);
          }
          visit(item.reveals ?? [], resolve, prefix);
          for (const content of Object.values(item.optionContent ?? {}))
            visit(content, resolve, prefix);
          break;
        }
        case 'block':
          addCondition(item.showWhen, resolve);
          visit(item.items, resolve, prefix);
          break;
        case 'repeat':
          addCondition(item.showWhen, resolve);
          for (const instance of item.instances)
            visit(item.items, instanceResolver(instance, resolve), instance.prefix);
          break;
        case 'tabs':
          addCondition(item.showWhen, resolve);
          for (const tab of item.tabs) visit(tab.items, resolve, prefix);
          break;
        case 'switch':
          for (const branch of item.cases) {
            addCondition(branch.when, resolve);
            visit(branch.items, resolve, prefix);
          }
          break;
      }
    }
  };
  for (const page of model.pages) visit(page.items, (key) => key, '');

  for (const key of revealing) conditionsByKey.delete(key);
  return {
    model,
    fields,
    controllingKeys: controlling,
    conditionsByKey,
    dependentSelects: dependents,
  };
}

/** The options a choice field offers now: its own, or those its controller's answer selects. */
export function optionsOf(
  field: Field,
  answerOf: (key: string) => unknown,
  resolveKey: KeyResolver,
): readonly OptionItem[] {
  const controllerKey = field.optionsFrom?.controllerKey;
  const controller = controllerKey ? String(answerOf(resolveKey(controllerKey)) ?? '') : undefined;
  return choiceSource(field, controller).options;
}

/** Every field under some items (all cases, tabs and instances), with its prefixed answer key. */
export function fieldsOfItems(
  items: readonly Item[],
  prefix = '',
): Array<{ field: Field; key: string }> {
  const fields: Array<{ field: Field; key: string }> = [];
  const visit = (list: readonly Item[], at: string) => {
    for (const item of list) {
      switch (item.kind) {
        case 'field':
          fields.push({ field: item, key: `${at}${item.key}` });
          visit(item.reveals ?? [], at);
          for (const content of Object.values(item.optionContent ?? {})) visit(content, at);
          break;
        case 'block':
          visit(item.items, at);
          break;
        case 'repeat':
          for (const instance of item.instances) visit(item.items, instance.prefix);
          break;
        case 'tabs':
          for (const tab of item.tabs) visit(tab.items, at);
          break;
        case 'switch':
          for (const branch of item.cases) visit(branch.items, at);
          break;
      }
    }
  };
  visit(items, prefix);
  return fields;
}

/** Every answer key under some items (all cases, tabs and instances), with the `_desc` companions. */
export function keysOfItems(items: readonly Item[], prefix = ''): string[] {
  return fieldsOfItems(items, prefix).flatMap(({ key }) => [key, `${key}_desc`]);
}
