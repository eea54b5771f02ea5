import { z } from 'zod';
import { type ConditionExpr, OPERATORS } from '../form/model';

/*
 * What a university configures about reading (tenant file key `review`): the review form of each
 * cycle, when a third read starts, and whether the committee sees score bands instead of numbers.
 * The form is written as data here and built into the form engine's model (review-form.ts), so it
 * is drawn, checked and validated by the same code as the application.
 */

/** A review form item's key: stored as a read's answer key. */
export const REVIEW_KEY = /^[a-z][a-z0-9_]{0,39}$/;
const key = z
  .string()
  .regex(REVIEW_KEY, 'must be 1 to 40 of a-z, 0-9 and _, starting with a letter');
const label = z.string().trim().min(1, 'is required').max(200);
const help = z.string().trim().max(500).optional();

const scalar = z.union([z.string().max(200), z.number(), z.boolean()]);

export const conditionSchema: z.ZodType<ConditionExpr> = z.lazy(() =>
  z.union([
    z.strictObject({
      valueKey: key,
      operator: z.enum(OPERATORS),
      target: z.union([scalar, z.array(scalar).max(50)]).optional(),
    }),
    z.strictObject({ all: z.array(conditionSchema).min(1).max(20) }),
    z.strictObject({ any: z.array(conditionSchema).min(1).max(20) }),
    z.strictObject({ not: conditionSchema }),
  ]),
);

const itemBase = {
  key,
  label,
  help,
  /** Shown (and kept) only while this holds over the read's own answers. */
  show_when: conditionSchema.optional(),
  /** Hidden from other readers until they submit their own read (scores are always blind). */
  blind: z.boolean().default(false),
};

/** A criterion scored on a whole-number scale; the read's score is the weighted mean of these. */
const scoreItem = z
  .strictObject({
    kind: z.literal('score'),
    ...itemBase,
    min: z.number().int().min(0).max(100),
    max: z.number().int().min(1).max(100),
    weight: z.number().positive().max(100).default(1),
    /** Words for some points of the scale, e.g. `{ "1": "Weak", "5": "Outstanding" }`. */
    point_labels: z
      .record(z.string().regex(/^\d{1,3}$/), z.string().trim().min(1).max(60))
      .optional(),
    required: z.boolean().default(true),
  })
  .refine((item) => item.max > item.min, { message: 'max must be above min', path: ['max'] })
  .refine((item) => item.max - item.min <= 20, {
    message: 'a scale has at most 21 points',
    path: ['max'],
  });

const textItem = z.strictObject({
  kind: z.literal('text'),
  ...itemBase,
  multiline: z.boolean().default(true),
  max_length: z.number().int().min(1).max(10_000).default(4000),
  required: z.boolean().default(false),
});

const choiceItem = z.strictObject({
  kind: z.literal('choice'),
  ...itemBase,
  options: z
    .array(z.strictObject({ value: z.string().regex(/^[a-z0-9_]{1,40}$/), label }))
    .min(2)
    .max(30),
  required: z.boolean().default(false),
});

/** The reader's recommendation: one of the tenant's decision codes. */
const recommendationItem = z.strictObject({
  kind: z.literal('recommendation'),
  ...itemBase,
  required: z.boolean().default(true),
});

export const reviewFieldSchema = z.discriminatedUnion('kind', [
  scoreItem,
  textItem,
  choiceItem,
  recommendationItem,
]);
export type ReviewFieldConfig = z.infer<typeof reviewFieldSchema>;

const sectionSchema = z.strictObject({
  kind: z.literal('section'),
  id: key,
  title: label,
  description: help,
  show_when: conditionSchema.optional(),
  items: z.array(reviewFieldSchema).min(1).max(40),
});
export type ReviewSectionConfig = z.infer<typeof sectionSchema>;

export const reviewItemSchema = z.union([reviewFieldSchema, sectionSchema]);
export type ReviewItemConfig = z.infer<typeof reviewItemSchema>;

/** A cycle as the confirmation number names it (`FA26`), or `*` for every cycle without its own. */
export const REVIEW_CYCLE = /^(?:\*|[A-Z]{2}\d{2})$/;

export const reviewFormConfigSchema = z
  .strictObject({
    cycle: z.string().regex(REVIEW_CYCLE, 'must be a cycle such as FA26, or * for any cycle'),
    /** Raised whenever the form changes in a cycle; each read records the version it was made with. */
    version: z.number().int().min(1).max(1000),
    title: label.default('Review'),
    items: z.array(reviewItemSchema).min(1).max(60),
  })
  .superRefine((form, context) => {
    const seen = new Set<string>();
    let recommendations = 0;
    let scores = 0;
    const visit = (item: ReviewFieldConfig, path: (string | number)[]) => {
      if (seen.has(item.key))
        context.addIssue({ code: 'custom', path: [...path, 'key'], message: 'is used twice' });
      seen.add(item.key);
      if (item.kind === 'recommendation') recommendations += 1;
      if (item.kind === 'score') scores += 1;
    };
    for (const [index, item] of form.items.entries()) {
      if (item.kind === 'section') {
        for (const [inner, field] of item.items.entries())
          visit(field, ['items', index, 'items', inner]);
      } else visit(item, ['items', index]);
    }
    if (recommendations > 1)
      context.addIssue({
        code: 'custom',
        path: ['items'],
        message: 'has more than one recommendation',
      });
    if (scores === 0)
      context.addIssue({ code: 'custom', path: ['items'], message: 'needs at least one score' });
  });
export type ReviewFormConfig = z.infer<typeof reviewFormConfigSchema>;

/** A committee may see bands (`Strong` from 4.0) instead of raw scores; ordered from the top. */
const scoreBandSchema = z.strictObject({
  label: z.string().trim().min(1).max(40),
  min: z.number().min(0).max(100),
});

/** Used when the tenant file names no review form: four criteria, comments and a recommendation. */
export const DEFAULT_REVIEW_FORM: ReviewFormConfig = {
  cycle: '*',
  version: 1,
  title: 'Review',
  items: [
    {
      kind: 'section',
      id: 'scores',
      title: 'Scores',
      description: '1 is weak, 5 is outstanding.',
      items: [
        scoreCriterion('academic', 'Academic preparation', 2),
        scoreCriterion('coursework_fit', 'Coursework for the program', 2),
        scoreCriterion('writing', 'Personal statement', 1),
        scoreCriterion('trajectory', 'Trajectory and context', 1),
      ],
    },
    {
      kind: 'text',
      key: 'comments',
      label: 'Comments for the committee',
      blind: true,
      multiline: true,
      max_length: 4000,
      required: false,
    },
    {
      kind: 'recommendation',
      key: 'recommendation',
      label: 'Recommendation',
      blind: true,
      required: true,
    },
  ],
};

function scoreCriterion(criterionKey: string, criterionLabel: string, weight: number) {
  return {
    kind: 'score' as const,
    key: criterionKey,
    label: criterionLabel,
    min: 1,
    max: 5,
    weight,
    required: true,
    blind: true,
    point_labels: { '1': 'Weak', '3': 'Sound', '5': 'Outstanding' },
  };
}

export const reviewConfigSchema = z
  .strictObject({
    forms: z
      .array(reviewFormConfigSchema)
      .min(1)
      .max(20)
      .superRefine((forms, context) => {
        const seen = new Set<string>();
        for (const [index, form] of forms.entries()) {
          if (seen.has(form.cycle))
            context.addIssue({ code: 'custom', path: [index, 'cycle'], message: 'is used twice' });
          seen.add(form.cycle);
        }
      })
      .default([DEFAULT_REVIEW_FORM]),
    /**
     * A third read starts when the first two reads' scores differ by more than this (on the
     * weighted score's own scale). Absent: never.
     */
    third_read_gap: z.number().min(0).max(100).optional(),
    /** Whether an assignment of a list gives each application a blind second read too. */
    second_reads: z.boolean().default(true),
    score_bands: z.array(scoreBandSchema).max(10).optional(),
  })
  .superRefine((review, context) => {
    const bands = review.score_bands ?? [];
    for (let index = 1; index < bands.length; index += 1) {
      const band = bands[index];
      const above = bands[index - 1];
      if (band && above && band.min >= above.min)
        context.addIssue({
          code: 'custom',
          path: ['score_bands', index, 'min'],
          message: 'bands go from the highest min down',
        });
    }
  });
export type ReviewConfig = z.infer<typeof reviewConfigSchema>;
