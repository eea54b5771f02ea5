import {
  decisionTypeOptions,
  entryTermOptions,
  majorOptions,
} from '../../../shared/application/option-lists';
import {
  REQUIREMENT_STATUS_LABELS,
  REQUIREMENT_STATUSES,
} from '../../../shared/credit/credit-requirements';
import type { OptionItem } from '../../../shared/form/model';
import {
  APPLICATION_STATUSES,
  LIST_FILTERS,
  type ListFilterOptions,
  parseRequirementFilterValue,
  requirementFilterValue,
  STATUS_LABELS,
} from '../../../shared/staff/list-filters';

/*
 * The choices a list filter offers, from where its row in the filter table says they come. The
 * list's controls show them and the decisions' confirmation names chosen values with them, so
 * they live below both.
 */

export interface FilterChoice {
  value: string;
  label: string;
}

/** Where choices that change come from at the time they are shown. */
export interface ChoiceSources {
  /** The year the entry terms are counted from. */
  year: number;
  /** The tenant's decision codes and labels (from the server). */
  decisionCodes: ReadonlyMap<string, string>;
  /** The tenant's credit requirements (its public configuration); none when not known. */
  requirements?: readonly RequirementChoice[];
}

/** A credit requirement as a filter names it. */
export interface RequirementChoice {
  id: string;
  label: string;
}

/**
 * A requirement filter's choices: each requirement with each status, "Golden Four: Met". A value
 * in the address the tenant no longer has is kept, named by its id.
 */
export function requirementChoices(
  requirements: readonly RequirementChoice[],
  chosen: readonly string[],
): FilterChoice[] {
  const byValue = new Map<string, string>();
  for (const requirement of requirements) {
    for (const status of REQUIREMENT_STATUSES) {
      byValue.set(
        requirementFilterValue(requirement.id, status),
        `${requirement.label}: ${REQUIREMENT_STATUS_LABELS[status]}`,
      );
    }
  }
  for (const value of chosen) {
    if (byValue.has(value)) continue;
    const parsed = parseRequirementFilterValue(value);
    byValue.set(
      value,
      parsed ? `${parsed.id}: ${REQUIREMENT_STATUS_LABELS[parsed.status]}` : value,
    );
  }
  return [...byValue.entries()].map(([value, label]) => ({ value, label }));
}

export function realOptions(options: readonly OptionItem[]): FilterChoice[] {
  return options.filter((option) => option.value !== '');
}

/**
 * Entry terms a filter offers: those the form offers now and in the last two years, so terms of
 * older applications can still be chosen; a term in the address the list does not know is kept.
 */
export function termChoices(year: number, chosen: readonly string[]): FilterChoice[] {
  const byValue = new Map<string, string>();
  for (const offset of [-2, -1, 0]) {
    for (const option of entryTermOptions(year + offset)) {
      if (option.value !== '') byValue.set(option.value, option.label);
    }
  }
  for (const value of chosen) if (!byValue.has(value)) byValue.set(value, value);
  return [...byValue.entries()].map(([value, label]) => ({ value, label }));
}

/** The choices of a filter's options, with the values chosen now. */
export function choicesOf(
  options: ListFilterOptions,
  chosen: readonly string[],
  sources: ChoiceSources,
): FilterChoice[] {
  switch (options.from) {
    case 'fixed':
      return options.values.map((value) => ({ value, label: options.labels[value] ?? value }));
    case 'entry_terms':
      return termChoices(sources.year, chosen);
    case 'programs':
      return realOptions(majorOptions);
    case 'decision_types':
      return realOptions(decisionTypeOptions);
    case 'decision_codes':
      return [...sources.decisionCodes].map(([value, label]) => ({ value, label }));
    case 'credit_requirements':
      return requirementChoices(sources.requirements ?? [], chosen);
  }
}

/** Labels by value of each filter of choices, by the filter's name. */
export type FilterLabels = Readonly<Record<string, ReadonlyMap<string, string>>>;

/**
 * The labels the list's filters show for their values (statuses, entry terms, programs, decision
 * types, the tenant's decision codes), so a sentence about the list names what the reader chose.
 */
export function filterLabelsOf(
  year: number,
  query: Readonly<Record<string, unknown>>,
  decisionLabels: ReadonlyMap<string, string>,
  requirements: readonly RequirementChoice[] = [],
): FilterLabels {
  const sources = { year, decisionCodes: decisionLabels, requirements };
  return Object.fromEntries(
    LIST_FILTERS.flatMap((row) => {
      if (row.kind !== 'choice' && row.kind !== 'choices') return [];
      const given = query[row.name];
      const chosen = Array.isArray(given) ? given.map(String) : [];
      const choices = choicesOf(row.options, chosen, sources);
      return [[row.name, new Map(choices.map((choice) => [choice.value, choice.label]))]];
    }),
  );
}

export function statusLabel(status: string): string {
  return (APPLICATION_STATUSES as readonly string[]).includes(status)
    ? STATUS_LABELS[status as keyof typeof STATUS_LABELS]
    : status;
}
