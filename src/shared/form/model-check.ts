import { ADD_ANOTHER_MAX } from '../constants';
import { EMPTY_COURSE } from '../coursework/coursework-answer';
import { conditionKeys, type KeyResolver } from './conditions';
import type { ConditionExpr, FormModel, OptionItem } from './model';
import {
  type ItemPlace,
  inFirstInstance,
  keyAt,
  rootPlace,
  type Visitor,
  visibilityConditions,
  walkItems,
} from './traverse';

/** A mistake in the model itself, found at start and in tests (spec 001 section 8). */
export class DeveloperError extends Error {
  override name = 'DeveloperError';
}

const COURSE_CELLS = Object.keys(EMPTY_COURSE) as ReadonlyArray<keyof typeof EMPTY_COURSE>;
const PREFIX = /^[a-z][a-z0-9]*(_[a-z0-9]+)*_$/;
const KEY = /^[a-z][a-z0-9_]*$/;

interface Place {
  key: string;
  pageId: string;
  /** Places under different cases of one switch may share a key (grouped conditions). */
  switchCase: string | null;
}

/** The switch case a place stands in, as `switchId#index`: its keys may repeat in a sibling case. */
function innermostCase(place: ItemPlace): string | null {
  for (let i = place.path.length - 1; i >= 0; i--) {
    const step = place.path[i];
    if (step?.kind === 'case') return `${step.id}#${step.index}`;
  }
  return null;
}

/**
 * Answer keys unique across pages, every condition reading a key of the data model, add-another
 * blocks within the maximum, prefixes well-formed, choice lists starting with the empty entry.
 * Returns the problems, each naming its key.
 */
export function checkModel(model: FormModel): string[] {
  const problems: string[] = [];
  const places: Place[] = [];
  const conditions: Array<{ expr: ConditionExpr; resolve: KeyResolver; where: string }> = [];
  const ids = new Set<string>();

  const uniqueId = (id: string, what: string) => {
    if (ids.has(id)) problems.push(`${what} id "${id}" is used twice`);
    ids.add(id);
  };

  const visitor: Visitor<null> = {
    item(item, place) {
      const pageId = place.page?.id ?? '';
      const switchCase = innermostCase(place);
      const resolve = place.resolveKey;
      // An item inside a repeat is visited once per instance: its own checks run on the first.
      const firstVisit = inFirstInstance(place);
      if (item.kind !== 'field' && firstVisit)
        uniqueId(item.id, item.kind === 'repeat' ? 'add-another' : item.kind);
      const where = item.kind === 'field' ? item.key : item.id;
      for (const expr of visibilityConditions(item)) conditions.push({ expr, resolve, where });
      switch (item.kind) {
        case 'field': {
          if (!KEY.test(item.key)) problems.push(`key "${item.key}" is not snake_case`);
          // Help of its own would state the limits a second time, in other words and order.
          if (item.widget === 'file' && item.help)
            problems.push(
              `key "${item.key}" is a file question with help text; its widget already states the file rules`,
            );
          places.push({ key: keyAt(place, item.key), pageId, switchCase });
          for (const rule of item.rules ?? []) {
            if (rule.instances && place.instance === null)
              problems.push(`key "${item.key}" has a rule for repeat instances outside a repeat`);
            if ('when' in rule && rule.when)
              conditions.push({ expr: rule.when, resolve, where: item.key });
            if (rule.type === 'anyAnswered') {
              for (const key of rule.keys)
                conditions.push({
                  expr: { valueKey: key, operator: 'answered' },
                  resolve,
                  where: item.key,
                });
            }
          }
          const choices: readonly OptionItem[][] = [
            ...(item.options ? [item.options as OptionItem[]] : []),
            ...Object.values(item.optionsFrom?.options ?? {}).map((list) => list as OptionItem[]),
          ];
          if (
            (item.widget === 'select' || item.widget === 'conditionalSelect') &&
            choices.length === 0
          ) {
            problems.push(`key "${item.key}" is a select without options`);
          }
          if (item.widget === 'select' || item.widget === 'conditionalSelect') {
            for (const list of choices) {
              if (list[0]?.value !== '' || list[0]?.label !== '--')
                problems.push(`key "${item.key}" options must start with the empty '--' entry`);
            }
          }
          if (item.optionsFrom)
            conditions.push({
              expr: { valueKey: item.optionsFrom.controllerKey, operator: 'answered' },
              resolve,
              where: item.key,
            });
          break;
        }
        case 'repeat': {
          if (item.instances.length < 1 || item.instances.length > ADD_ANOTHER_MAX) {
            problems.push(
              `add-another "${item.id}" has ${item.instances.length} blocks; allowed 1 to ${ADD_ANOTHER_MAX}`,
            );
          }
          for (const instance of item.instances) {
            if (!PREFIX.test(instance.prefix))
              problems.push(`add-another "${item.id}" has a bad prefix "${instance.prefix}"`);
          }
          break;
        }
        case 'tabs':
          if (!item.tabs.some((tab) => tab.id === item.defaultTab))
            problems.push(`tabs "${item.id}" default tab "${item.defaultTab}" does not exist`);
          break;
        case 'coursework': {
          if (!KEY.test(item.key)) problems.push(`key "${item.key}" is not snake_case`);
          places.push({ key: keyAt(place, item.key), pageId, switchCase });
          const cells = item.columns.map((column) => column.cell);
          if (cells.length !== COURSE_CELLS.length || COURSE_CELLS.some((c) => !cells.includes(c)))
            problems.push(
              `coursework "${item.id}" must have one column for each of ${COURSE_CELLS.join(', ')}`,
            );
          if (item.collegeKeys.length === 0)
            problems.push(`coursework "${item.id}" names no key for its college`);
          for (const key of item.collegeKeys)
            conditions.push({
              expr: { valueKey: key, operator: 'answered' },
              resolve,
              where: item.id,
            });
          break;
        }
      }
    },
  };

  for (const page of model.pages) {
    uniqueId(page.id, 'page');
    walkItems(page.items, rootPlace(page), visitor, null);
  }

  const seen = new Map<string, Place>();
  for (const place of places) {
    const earlier = seen.get(place.key);
    if (!earlier) {
      seen.set(place.key, place);
      continue;
    }
    const sameSwitch =
      earlier.switchCase !== null &&
      place.switchCase !== null &&
      earlier.switchCase !== place.switchCase &&
      earlier.switchCase.split('#')[0] === place.switchCase.split('#')[0];
    if (!sameSwitch) {
      problems.push(
        earlier.pageId === place.pageId
          ? `key "${place.key}" appears twice on page ${place.pageId}`
          : `key "${place.key}" appears on pages ${earlier.pageId} and ${place.pageId}`,
      );
    }
  }

  const known = new Set(seen.keys());
  for (const { expr, resolve, where } of conditions) {
    for (const key of conditionKeys(expr, resolve)) {
      if (!known.has(key))
        problems.push(`key "${key}" read by a condition of "${where}" is not in the data model`);
    }
  }
  return [...new Set(problems)];
}

/** In development and tests a broken model throws; in production it is logged and the app runs on. */
export function assertModel(
  model: FormModel,
  mode: 'development' | 'test' | 'production',
  log: (message: string) => void,
): void {
  const problems = checkModel(model);
  if (problems.length === 0) return;
  const message = `The form model is inconsistent:\n  ${problems.join('\n  ')}`;
  if (mode === 'production') log(message);
  else throw new DeveloperError(message);
}
