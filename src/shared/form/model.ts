/**
 * The one declarative model of the application (docs/design.md, "One model, four views"): pages hold
 * items; an item is a field or a container (block, repeat, tabs, switch). Every view — the edit
 * renderer, the read-only view, validation on both sides and the application PDF — reads this.
 */

import type { CourseCell } from '../coursework/coursework-answer';
import type { LookupBinding } from './lookup-binding';

export type AnswerValue = string | boolean;
export type Answers = Record<string, AnswerValue>;

export const OPERATORS = [
  'notEquals',
  'equals',
  'lt',
  'lte',
  'gt',
  'gte',
  'notAnswered',
  'answered',
  'in',
  'notIn',
] as const;
export type Operator = (typeof OPERATORS)[number];

export type Scalar = string | number | boolean;

/** Spec 000 section 3. Inside a repeat, a valueKey starting with `$` names a key of the same instance. */
export interface Condition {
  valueKey: string;
  operator: Operator;
  target?: Scalar | readonly Scalar[];
}

export type ConditionExpr =
  | Condition
  | { all: readonly ConditionExpr[] }
  | { any: readonly ConditionExpr[] }
  | { not: ConditionExpr };

export interface OptionItem {
  value: string;
  label: string;
}

export type Widget =
  | 'text'
  | 'email'
  | 'textarea'
  | 'date'
  | 'phone'
  | 'select'
  | 'radio'
  | 'checkbox'
  | 'confirmCheckbox'
  | 'confirmButton'
  | 'conditionalSelect'
  | 'month'
  | 'year'
  | 'file'
  | 'coursework';

/**
 * Inside a repeat, a rule may hold for some instances only: `instances` lists their 0-based
 * indexes (the first college's name is required, the others' are not). Without it, every instance.
 */
export interface RuleScope {
  instances?: readonly number[];
}

/** Messages may hold `{instance}` (the repeat instance's label) and `{year}` (year-range rules). */
export type Rule = RuleScope &
  (
    | { type: 'required'; message: string; when?: ConditionExpr }
    | { type: 'pattern'; pattern: string; flags?: string; message: string; when?: ConditionExpr }
    | { type: 'minLength'; min: number; message: string; when?: ConditionExpr }
    | { type: 'digits'; message: string }
    | { type: 'date'; message: string }
    | { type: 'minAgeYears'; years: number; message: string }
    | { type: 'notBeforeYearsAgo'; years: number; message: string }
    | {
        type: 'yearRange';
        minYearsAgo: number;
        maxYearsAhead: number;
        minMessage: string;
        maxMessage: string;
      }
    | { type: 'anyAnswered'; keys: readonly string[]; message: string; when?: ConditionExpr }
    | { type: 'mustBeChecked'; message: string }
  );

export interface YearList {
  /** Default: the current year. */
  start?: number;
  count: number;
  direction: 'past' | 'future';
}

export interface Field {
  kind: 'field';
  /** The answer key; inside a repeat, the key after the instance prefix. */
  key: string;
  widget: Widget;
  label: string;
  help?: string;
  /** Hidden (and its answer cleared) unless this holds. */
  showWhen?: ConditionExpr;
  rules?: readonly Rule[];
  /** Text inputs: default 45. Text areas: characterLimit, default 1500. */
  maxLength?: number;
  characterLimit?: number;
  options?: readonly OptionItem[];
  /** Conditional dropdown: the options follow the answer of another key, and reset when it changes. */
  optionsFrom?: { controllerKey: string; options: Readonly<Record<string, readonly OptionItem[]>> };
  /** Select and radio answers also store `{key}_desc` with the chosen label unless this is false. */
  storeDesc?: boolean;
  years?: YearList;
  /** Radio: content shown for one chosen value (radio-specific content). */
  optionContent?: Readonly<Record<string, readonly Item[]>>;
  /** Confirmation button or checkbox: content revealed once pressed or ticked. */
  reveals?: readonly Item[];
  /** The HTML autocomplete token, so browsers and password managers can fill the field. */
  autoComplete?: string;
  /** A text field that also searches a school or address list and fills related keys. */
  lookup?: LookupBinding;
  /** The grid whose answer this is (widget `coursework`): set by the traversal, not by models. */
  coursework?: CourseworkGrid;
}

export interface Block {
  kind: 'block';
  id: string;
  /** A titled block is a group: the read-only view shows it only when one of its answers exists. */
  title?: string;
  description?: string;
  showWhen?: ConditionExpr;
  /** Composite widgets laid out as one: an address or a school search, keys under `prefix`. */
  layout?: 'address' | 'schoolSearch';
  items: readonly Item[];
}

export interface RepeatInstance {
  /** Joined to each key inside the repeat: `hs_` + `name` is `hs_name`. */
  prefix: string;
  /** Named in messages through `{instance}` and shown as the instance heading. */
  label: string;
}

/** Add-another: instances shown up to the server's count for `id` (default 1, at most 10). */
export interface Repeat {
  kind: 'repeat';
  id: string;
  title?: string;
  /** Names the thing added: 'Add Another' button and the 'Error adding another {addLabel}' toast. */
  addLabel: string;
  instances: readonly RepeatInstance[];
  showWhen?: ConditionExpr;
  items: readonly Item[];
}

export interface Tab {
  id: string;
  label: string;
  items: readonly Item[];
}

/** Tabs: only the chosen tab's answers are kept; anonymous visitors see the default tab only. */
export interface Tabs {
  kind: 'tabs';
  id: string;
  label: string;
  defaultTab: string;
  tabs: readonly Tab[];
  showWhen?: ConditionExpr;
}

/** Grouped conditions: the first case that holds is shown; the others' keys are cleared unless also shown. */
export interface Switch {
  kind: 'switch';
  id: string;
  cases: ReadonlyArray<{ when: ConditionExpr; items: readonly Item[] }>;
}

export interface CourseworkColumn {
  cell: CourseCell;
  label: string;
}

/**
 * A college's coursework: terms, each with rows of courses. Its rows are data of one answer (the
 * JSON text `coursework-answer.ts` reads), not fields with keys of their own, so a term or a row
 * is added without a change to the model, and the grid is cleared with the instance it stands in.
 */
export interface CourseworkGrid {
  kind: 'coursework';
  id: string;
  /** The answer key holding the grid; inside a repeat, the key after the instance prefix. */
  key: string;
  label: string;
  help?: string;
  showWhen?: ConditionExpr;
  /**
   * Keys naming the college (`$ceeb`, then `$name`): the first answered one tells which college
   * this is, so a course retaken at the same college is one course whichever entry holds it.
   */
  collegeKeys: readonly string[];
  /** The cells of a course row, in the order they are typed. */
  columns: readonly CourseworkColumn[];
}

export type Item = Field | Block | Repeat | Tabs | Switch | CourseworkGrid;

export interface Page {
  id: string;
  route: string;
  title: string;
  items: readonly Item[];
}

export interface FormModel {
  pages: readonly Page[];
}

/** The state besides answers that decides what is shown. */
export interface FormState {
  answers: Answers;
  addAnother: Readonly<Record<string, number>>;
  tabs: Readonly<Record<string, string>>;
  isLoggedIn: boolean;
}

export const DESC_SUFFIX = '_desc';

export function storesDesc(field: Field): boolean {
  const choice =
    field.widget === 'select' || field.widget === 'radio' || field.widget === 'conditionalSelect';
  return choice && field.storeDesc !== false;
}

const answerFields = new WeakMap<CourseworkGrid, Field>();

/**
 * The answer a coursework grid stores, as the field every key-based view reads (the data model,
 * validation, hidden-answer clearing): one per grid, so views may compare it by identity.
 */
export function courseworkAnswerField(grid: CourseworkGrid): Field {
  const known = answerFields.get(grid);
  if (known) return known;
  const field: Field = {
    kind: 'field',
    key: grid.key,
    widget: 'coursework',
    label: grid.label,
    ...(grid.help ? { help: grid.help } : {}),
    ...(grid.showWhen ? { showWhen: grid.showWhen } : {}),
    coursework: grid,
  };
  answerFields.set(grid, field);
  return field;
}
