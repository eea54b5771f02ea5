import type { Answers, AnswerValue, Condition, ConditionExpr, Scalar } from './model';

/** Spec 000 section 3: an answer counts as answered when it is truthy. */
export function isAnswered(value: AnswerValue | undefined): boolean {
  return Boolean(value);
}

function asComparable(value: AnswerValue | Scalar | undefined): number | string {
  if (typeof value === 'number') return value;
  const text = String(value ?? '').trim();
  const number = Number(text);
  return text !== '' && Number.isFinite(number) ? number : text;
}

function compare(value: AnswerValue | undefined, target: Scalar | undefined): number | null {
  if (!isAnswered(value)) return null;
  const left = asComparable(value);
  const right = asComparable(target);
  if (typeof left !== typeof right) return null;
  return left < right ? -1 : left > right ? 1 : 0;
}

function targets(target: Condition['target']): string[] {
  if (target === undefined) return [];
  return (Array.isArray(target) ? target : [target]).map((t) => String(t));
}

/** Resolves `$key` (same repeat instance) to a full answer key. */
export type KeyResolver = (valueKey: string) => string;
const absolute: KeyResolver = (key) => key;

export function evaluateCondition(
  condition: Condition,
  answers: Answers,
  resolve: KeyResolver = absolute,
): boolean {
  const value = answers[resolve(condition.valueKey)];
  const single = Array.isArray(condition.target)
    ? undefined
    : (condition.target as Scalar | undefined);
  switch (condition.operator) {
    case 'answered':
      return isAnswered(value);
    case 'notAnswered':
      return !isAnswered(value);
    case 'equals':
      return String(value ?? '') === String(single ?? '');
    case 'notEquals':
      return String(value ?? '') !== String(single ?? '');
    case 'in':
      return targets(condition.target).includes(String(value ?? ''));
    case 'notIn':
      return !targets(condition.target).includes(String(value ?? ''));
    case 'lt':
      return (compare(value, single) ?? 0) < 0;
    case 'lte': {
      const order = compare(value, single);
      return order !== null && order <= 0;
    }
    case 'gt':
      return (compare(value, single) ?? 0) > 0;
    case 'gte': {
      const order = compare(value, single);
      return order !== null && order >= 0;
    }
  }
}

/** The one evaluator every view uses: renderer, validator, read-only view and PDF. */
export function evaluate(
  expr: ConditionExpr | undefined,
  answers: Answers,
  resolve: KeyResolver = absolute,
): boolean {
  if (expr === undefined) return true;
  if ('all' in expr) return expr.all.every((part) => evaluate(part, answers, resolve));
  if ('any' in expr) return expr.any.some((part) => evaluate(part, answers, resolve));
  if ('not' in expr) return !evaluate(expr.not, answers, resolve);
  return evaluateCondition(expr, answers, resolve);
}

/** Every answer key an expression reads: the renderer re-renders a field when one of them changes. */
export function conditionKeys(
  expr: ConditionExpr | undefined,
  resolve: KeyResolver = absolute,
): string[] {
  if (expr === undefined) return [];
  if ('all' in expr) return expr.all.flatMap((part) => conditionKeys(part, resolve));
  if ('any' in expr) return expr.any.flatMap((part) => conditionKeys(part, resolve));
  if ('not' in expr) return conditionKeys(expr.not, resolve);
  return [resolve(expr.valueKey)];
}
