import { EMPTY_OPTION } from '../form/choices';
import type { Answers, Block, Field, FormModel, Item, OptionItem, Rule } from '../form/model';
import {
  DEFAULT_REVIEW_FORM,
  type ReviewConfig,
  type ReviewFieldConfig,
  type ReviewFormConfig,
} from './review-config';

/*
 * A review form as the form engine's model: one page whose fields are drawn, checked
 * (parseAnswerPatch) and validated (validateAnswers) by the same code as the application's, on
 * both sides. Scores are radio groups whose options are the scale's points, so a score outside
 * its scale is refused as any value that is not a field's option.
 */

export interface Criterion {
  key: string;
  label: string;
  min: number;
  max: number;
  weight: number;
}

export interface ReviewForm {
  cycle: string;
  version: number;
  title: string;
  model: FormModel;
  criteria: readonly Criterion[];
  /** Keys other readers never see before submitting their own read. Every score is one. */
  blindKeys: ReadonlySet<string>;
  /** The recommendation's key, if the form asks for one. */
  recommendationKey: string | null;
}

export const REVIEW_PAGE_ID = 'review';

export const REVIEW_MESSAGES = {
  required: 'Answer this question before submitting.',
  score: (min: number, max: number) => `Choose a score from ${min} to ${max}.`,
  recommendation: 'Choose a recommendation.',
} as const;

function required(isRequired: boolean, message: string): Rule[] {
  return isRequired ? [{ type: 'required', message }] : [];
}

function scaleOptions(item: Extract<ReviewFieldConfig, { kind: 'score' }>): OptionItem[] {
  const options: OptionItem[] = [];
  for (let point = item.min; point <= item.max; point += 1) {
    const words = item.point_labels?.[String(point)];
    options.push({ value: String(point), label: words ? `${point} ${words}` : String(point) });
  }
  return options;
}

function reviewField(item: ReviewFieldConfig, decisionCodes: readonly OptionItem[]): Field {
  const base = {
    kind: 'field' as const,
    key: item.key,
    label: item.label,
    ...(item.help ? { help: item.help } : {}),
    ...(item.show_when ? { showWhen: item.show_when } : {}),
  };
  switch (item.kind) {
    case 'score':
      return {
        ...base,
        widget: 'radio',
        options: scaleOptions(item),
        storeDesc: false,
        rules: required(item.required, REVIEW_MESSAGES.score(item.min, item.max)),
      };
    case 'text':
      return item.multiline
        ? {
            ...base,
            widget: 'textarea',
            characterLimit: item.max_length,
            rules: required(item.required, REVIEW_MESSAGES.required),
          }
        : {
            ...base,
            widget: 'text',
            maxLength: item.max_length,
            rules: required(item.required, REVIEW_MESSAGES.required),
          };
    case 'choice':
      return {
        ...base,
        widget: 'radio',
        options: item.options,
        storeDesc: false,
        rules: required(item.required, REVIEW_MESSAGES.required),
      };
    case 'recommendation':
      return {
        ...base,
        widget: 'select',
        options: [EMPTY_OPTION, ...decisionCodes],
        storeDesc: false,
        rules: required(item.required, REVIEW_MESSAGES.recommendation),
      };
  }
}

/** The engine's model of a configured review form, with what reading needs to know about it. */
export function buildReviewForm(
  config: ReviewFormConfig,
  decisionCodes: readonly OptionItem[],
): ReviewForm {
  const criteria: Criterion[] = [];
  const blindKeys = new Set<string>();
  let recommendationKey: string | null = null;
  const note = (item: ReviewFieldConfig) => {
    if (item.kind === 'score') {
      criteria.push({
        key: item.key,
        label: item.label,
        min: item.min,
        max: item.max,
        weight: item.weight,
      });
      blindKeys.add(item.key);
    }
    if (item.blind) blindKeys.add(item.key);
    if (item.kind === 'recommendation') recommendationKey = item.key;
  };
  const items: Item[] = config.items.map((item): Item => {
    if (item.kind !== 'section') {
      note(item);
      return reviewField(item, decisionCodes);
    }
    for (const field of item.items) note(field);
    const block: Block = {
      kind: 'block',
      id: item.id,
      title: item.title,
      ...(item.description ? { description: item.description } : {}),
      ...(item.show_when ? { showWhen: item.show_when } : {}),
      items: item.items.map((field) => reviewField(field, decisionCodes)),
    };
    return block;
  });
  return {
    cycle: config.cycle,
    version: config.version,
    title: config.title,
    model: { pages: [{ id: REVIEW_PAGE_ID, route: '/review', title: config.title, items }] },
    criteria,
    blindKeys,
    recommendationKey,
  };
}

/** The form configured for a cycle (`FA26`), else the `*` form, else the built-in one. */
export function reviewFormConfigFor(review: ReviewConfig, cycle: string | null): ReviewFormConfig {
  return (
    review.forms.find((form) => form.cycle === cycle) ??
    review.forms.find((form) => form.cycle === '*') ??
    DEFAULT_REVIEW_FORM
  );
}

/**
 * A read's score: the weighted mean of its answered criteria, to two decimals; null when no
 * criterion is answered. Answers that are not a point of the scale count for nothing.
 */
export function readScore(criteria: readonly Criterion[], answers: Answers): number | null {
  let total = 0;
  let weights = 0;
  for (const criterion of criteria) {
    const value = answers[criterion.key];
    if (typeof value !== 'string' || !/^\d{1,3}$/.test(value)) continue;
    const point = Number(value);
    if (point < criterion.min || point > criterion.max) continue;
    total += point * criterion.weight;
    weights += criterion.weight;
  }
  return weights === 0 ? null : Math.round((total / weights) * 100) / 100;
}

/** A read's answers with its blind keys taken out: what a reader who has not submitted may see. */
export function withoutBlindAnswers(
  form: Pick<ReviewForm, 'blindKeys'>,
  answers: Answers,
): Answers {
  const seen: Answers = {};
  for (const [answerKey, value] of Object.entries(answers)) {
    if (!form.blindKeys.has(answerKey)) seen[answerKey] = value;
  }
  return seen;
}

export interface CriterionSpread {
  key: string;
  label: string;
  /** Submitted reads that scored it. */
  count: number;
  mean: number | null;
  /** Population standard deviation; 0 for one score. */
  spread: number | null;
  min: number | null;
  max: number | null;
}

/** Each criterion's mean and spread over the submitted reads' answers. */
export function criterionSpreads(
  criteria: readonly Criterion[],
  reads: readonly Answers[],
): CriterionSpread[] {
  return criteria.map((criterion) => {
    const points = reads
      .map((answers) => answers[criterion.key])
      .filter((value): value is string => typeof value === 'string' && /^\d{1,3}$/.test(value))
      .map(Number);
    if (points.length === 0)
      return { ...pick(criterion), count: 0, mean: null, spread: null, min: null, max: null };
    const mean = points.reduce((sum, point) => sum + point, 0) / points.length;
    const variance = points.reduce((sum, point) => sum + (point - mean) ** 2, 0) / points.length;
    return {
      ...pick(criterion),
      count: points.length,
      mean: round2(mean),
      spread: round2(Math.sqrt(variance)),
      min: Math.min(...points),
      max: Math.max(...points),
    };
  });
}

function pick(criterion: Criterion): { key: string; label: string } {
  return { key: criterion.key, label: criterion.label };
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/** Whether two scores are far enough apart that a third read starts. */
export function needsThirdRead(
  scores: readonly (number | null)[],
  gap: number | undefined,
): boolean {
  if (gap === undefined) return false;
  const known = scores.filter((score): score is number => score !== null);
  if (known.length < 2) return false;
  return Math.max(...known) - Math.min(...known) > gap;
}

/** The band a score falls in (bands ordered from the highest `min`), or null below them all. */
export function scoreBand(
  bands: readonly { label: string; min: number }[],
  score: number,
): string | null {
  return bands.find((band) => score >= band.min)?.label ?? null;
}
