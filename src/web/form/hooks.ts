import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { conditionKeys, evaluate, type KeyResolver } from '../../shared/form/conditions';
import type { AnswerValue, ConditionExpr, Field, Repeat, Tabs } from '../../shared/form/model';
import { chosenTab, repeatCount } from '../../shared/form/resolve';
import { type FieldAt, isRequired, validateField } from '../../shared/form/validate';
import type { AnswerStore } from '../app-state/answer-store';
import { useFormContext } from './form-context';

const NO_KEYS: readonly string[] = [];

// Every snapshot reader below keeps its identity between renders: given a new reader, React
// queues an effect that stores it and reads the store again, so a new function at each render
// cost every hook of the field typed into that extra work at every keystroke.

function useKeysSubscription(store: AnswerStore, keys: readonly string[]) {
  return useCallback(
    (listener: () => void) => {
      const offs = keys.map((key) => store.subscribeKey(key, listener));
      return () => {
        for (const off of offs) off();
      };
    },
    [store, keys],
  );
}

/** One answer; the component re-renders when that key changes and at no other answer's change. */
export function useAnswer(key: string): AnswerValue | undefined {
  const { store } = useFormContext();
  const keys = useMemo(() => [key], [key]);
  const subscribe = useKeysSubscription(store, keys);
  const read = useCallback(() => store.get(key), [store, key]);
  return useSyncExternalStore(subscribe, read, read);
}

/**
 * Whether a condition holds. The component subscribes to the keys the condition reads, and
 * re-renders only when the outcome flips, not at every keystroke in those keys.
 */
export function useCondition(expr: ConditionExpr | undefined, resolve: KeyResolver): boolean {
  const { store } = useFormContext();
  const keys = useMemo(() => (expr ? conditionKeys(expr, resolve) : NO_KEYS), [expr, resolve]);
  const subscribe = useKeysSubscription(store, keys);
  const read = useCallback(() => evaluate(expr, store.getAll(), resolve), [store, expr, resolve]);
  return useSyncExternalStore(subscribe, read, read);
}

/** The index of the first case that holds (grouped conditions), or -1. */
export function useFirstCase(
  cases: ReadonlyArray<{ when: ConditionExpr }>,
  resolve: KeyResolver,
): number {
  const { store } = useFormContext();
  const keys = useMemo(
    () => [...new Set(cases.flatMap((branch) => conditionKeys(branch.when, resolve)))],
    [cases, resolve],
  );
  const subscribe = useKeysSubscription(store, keys);
  const read = useCallback(
    () => cases.findIndex((branch) => evaluate(branch.when, store.getAll(), resolve)),
    [store, cases, resolve],
  );
  return useSyncExternalStore(subscribe, read, read);
}

export function useRepeatCount(repeat: Repeat): number {
  const { store } = useFormContext();
  const subscribe = useCallback(
    (listener: () => void) => store.subscribeRepeat(repeat.id, listener),
    [store, repeat.id],
  );
  const read = useCallback(() => {
    const stored = store.repeatCount(repeat.id);
    return repeatCount(repeat, stored === undefined ? {} : { [repeat.id]: stored });
  }, [store, repeat]);
  return useSyncExternalStore(subscribe, read, read);
}

export function useChosenTab(tabs: Tabs): string {
  const { store, isLoggedIn } = useFormContext();
  const subscribe = useCallback(
    (listener: () => void) => store.subscribeTab(tabs.id, listener),
    [store, tabs.id],
  );
  const read = useCallback(() => {
    const stored = store.chosenTab(tabs.id);
    return chosenTab(tabs, { tabs: stored === undefined ? {} : { [tabs.id]: stored }, isLoggedIn });
  }, [store, tabs, isLoggedIn]);
  return useSyncExternalStore(subscribe, read, read);
}

/**
 * Every key a field's checks read besides its own: a conditional dropdown's controller, conditions
 * of `when`, and `anyAnswered` keys.
 */
export function ruleKeys(field: Field, key: string, resolve: KeyResolver): string[] {
  const keys = new Set([key]);
  if (field.optionsFrom) keys.add(resolve(field.optionsFrom.controllerKey));
  for (const rule of field.rules ?? []) {
    if ('when' in rule) for (const name of conditionKeys(rule.when, resolve)) keys.add(name);
    if (rule.type === 'anyAnswered') for (const name of rule.keys) keys.add(resolve(name));
  }
  return [...keys];
}

const SEPARATOR = '\u0000';

/**
 * A shown field's messages while validating (spec 000 section 4), with the shared engine. The
 * snapshot is the joined text, so the field re-renders only when its messages change.
 */
export function useFieldErrors(place: FieldAt): readonly string[] {
  const { store, validating, today } = useFormContext();
  // Every field, with rules or not: its stored answer may not be one the model allows any more.
  const keys = useMemo(
    () => (validating ? ruleKeys(place.field, place.key, place.resolveKey) : NO_KEYS),
    [validating, place],
  );
  const subscribe = useKeysSubscription(store, keys);
  const read = useCallback(
    () =>
      keys.length === 0 ? '' : validateField(place, store.getAll(), { today }).join(SEPARATOR),
    [store, keys, place, today],
  );
  const joined = useSyncExternalStore(subscribe, read, read);
  return useMemo(() => (joined === '' ? [] : joined.split(SEPARATOR)), [joined]);
}

/**
 * Whether a shown field must be answered, for its mark and aria-required. It follows the answers
 * its rules' conditions read (a GPA scale once a GPA is typed), at any time, not only while
 * validating: the mark is there before the applicant submits.
 */
export function useRequired(place: FieldAt): boolean {
  const { store } = useFormContext();
  const keys = useMemo(() => ruleKeys(place.field, place.key, place.resolveKey), [place]);
  const subscribe = useKeysSubscription(store, keys);
  const read = useCallback(() => isRequired(place, store.getAll()), [store, place]);
  return useSyncExternalStore(subscribe, read, read);
}
