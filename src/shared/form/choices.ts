import type { Field, OptionItem, Widget, YearList } from './model';

/** The first entry of every select list: no choice made. */
export const EMPTY_OPTION: OptionItem = { value: '', label: '--' };

/**
 * A year list (spec 001 section 3): `count` years from `start` (default: the current year), going
 * into the past or the future. Pure: the caller passes the current year.
 */
export function yearOptions(list: YearList, currentYear: number): OptionItem[] {
  const start = list.start ?? currentYear;
  const step = list.direction === 'past' ? -1 : 1;
  const count = Math.max(0, Math.trunc(list.count));
  const years = Array.from({ length: count }, (_, index) => String(start + index * step));
  return [EMPTY_OPTION, ...years.map((year) => ({ value: year, label: year }))];
}

const CHOICE_WIDGETS: ReadonlySet<Widget> = new Set([
  'select',
  'radio',
  'conditionalSelect',
  'month',
  'year',
]);

/** Widgets whose answer must be one of the values they offer. */
export function isChoiceWidget(widget: Widget): boolean {
  return CHOICE_WIDGETS.has(widget);
}

/** What a choice field offers: fixed options, and year lists that follow the current year. */
export interface ChoiceSource {
  options: readonly OptionItem[];
  years: readonly YearList[];
}

/**
 * The choices of a field. A conditional dropdown offers the list of its controller's answer; with
 * no answer given (`undefined`), every list it may ever show.
 */
export function choiceSource(field: Field, controllerAnswer?: string): ChoiceSource {
  if (field.widget === 'year' && field.years) return { options: [], years: [field.years] };
  if (!field.optionsFrom) return { options: field.options ?? [], years: [] };
  const lists = field.optionsFrom.options;
  return {
    options:
      controllerAnswer === undefined
        ? Object.values(lists).flat()
        : // The answer is the applicant's: 'constructor' must not find Object's own.
          Object.hasOwn(lists, controllerAnswer)
          ? (lists[controllerAnswer] ?? [])
          : [],
    years: [],
  };
}

/** The options of a choice source in a given year, in the order the widget lists them. */
export function choiceOptions(source: ChoiceSource, currentYear: number): readonly OptionItem[] {
  if (source.years.length === 0) return source.options;
  return [...source.options, ...source.years.flatMap((list) => yearOptions(list, currentYear))];
}

/** The options a choice field shows now: what the widget lists and what a save accepts. */
export function offeredOptions(
  field: Field,
  currentYear: number,
  controllerAnswer?: string,
): readonly OptionItem[] {
  return choiceOptions(choiceSource(field, controllerAnswer), currentYear);
}
