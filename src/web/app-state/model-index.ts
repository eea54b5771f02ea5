import { choiceSource } from '../../shared/form/choices';
import { conditionKeys, type KeyResolver } from '../../shared/form/conditions';
import type { ConditionExpr, Field, FormModel, Item, OptionItem } from '../../shared/form/model';
import { resolveModel } from '../../shared/form/resolve';
import {
  keyAt,
  rootPlace,
  visibilityConditions,
  walkItems,
  walkModel,
} from '../../shared/form/traverse';

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
  walkModel(
    model,
    {
      item(item, place) {
        const resolve = place.resolveKey;
        for (const expr of visibilityConditions(item)) addCondition(expr, resolve);
        if (item.kind !== 'field') return;
        const key = keyAt(place, item.key);
        if (item.reveals || item.optionContent) {
          controlling.add(key);
          revealing.add(key);
        }
        if (item.optionsFrom) {
          const controller = resolve(item.optionsFrom.controllerKey);
          dependents.set(controller, [...(dependents.get(controller) ?? []), key]);
        }
      },
    },
    null,
  );

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
  walkItems(
    items,
    rootPlace(null, prefix),
    {
      item(item, place) {
        if (item.kind === 'field') fields.push({ field: item, key: keyAt(place, item.key) });
      },
    },
    null,
  );
  return fields;
}

/** Every answer key under some items (all cases, tabs and instances), with the `_desc` companions. */
export function keysOfItems(items: readonly Item[], prefix = ''): string[] {
  return fieldsOfItems(items, prefix).flatMap(({ key }) => [key, `${key}_desc`]);
}
