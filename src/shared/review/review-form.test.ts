import { describe, expect, it } from 'vitest';
import { answerKeySpecs, parseAnswerPatch } from '../form/answer-keys';
import { checkModel } from '../form/model-check';
import { validateAnswers } from '../form/validate';
import { DEFAULT_REVIEW_FORM, reviewConfigSchema } from './review-config';
import {
  buildReviewForm,
  criterionSpreads,
  needsThirdRead,
  readScore,
  reviewFormConfigFor,
  scoreBand,
  withoutBlindAnswers,
} from './review-form';

const codes = [
  { value: 'admit', label: 'Admit' },
  { value: 'deny', label: 'Deny' },
];
const form = buildReviewForm(DEFAULT_REVIEW_FORM, codes);
const state = (answers: Record<string, string | boolean>) => ({
  answers,
  addAnother: {},
  tabs: {},
  isLoggedIn: true,
});

describe('a review form in the form engine', () => {
  it('is a model the engine accepts', () => {
    expect(checkModel(form.model)).toEqual([]);
    expect(form.criteria.map((criterion) => criterion.key)).toEqual([
      'academic',
      'coursework_fit',
      'writing',
      'trajectory',
    ]);
    expect(form.recommendationKey).toBe('recommendation');
    expect([...form.blindKeys].sort()).toEqual(
      ['academic', 'comments', 'coursework_fit', 'recommendation', 'trajectory', 'writing'].sort(),
    );
  });

  it('refuses a score outside its scale and a recommendation that is not a decision code', () => {
    const specs = answerKeySpecs(form.model);
    const result = parseAnswerPatch(specs, { academic: '6', recommendation: 'maybe' });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(Object.keys(result.errors).sort()).toEqual(['academic', 'recommendation']);
    expect(parseAnswerPatch(specs, { academic: '5', recommendation: 'admit' })).toEqual({
      ok: true,
      patch: { academic: '5', recommendation: 'admit' },
    });
    expect(parseAnswerPatch(specs, { nonsense: '1' }).ok).toBe(false);
  });

  it('asks for every score and the recommendation at submit', () => {
    const errors = validateAnswers(form.model, state({ academic: '4' }), { today: '2026-11-28' });
    expect(Object.keys(errors).sort()).toEqual(
      ['coursework_fit', 'recommendation', 'trajectory', 'writing'].sort(),
    );
    expect(errors.writing).toEqual(['Choose a score from 1 to 5.']);
  });
});

describe('scores', () => {
  it('weights each criterion', () => {
    // (5*2 + 3*2 + 1*1 + 3*1) / 6 = 20/6
    expect(
      readScore(form.criteria, {
        academic: '5',
        coursework_fit: '3',
        writing: '1',
        trajectory: '3',
      }),
    ).toBe(3.33);
    expect(readScore(form.criteria, { academic: '9' })).toBeNull();
    expect(readScore(form.criteria, {})).toBeNull();
  });

  it('gives mean and spread per criterion', () => {
    const [academic] = criterionSpreads(form.criteria, [{ academic: '5' }, { academic: '3' }, {}]);
    expect(academic).toEqual({
      key: 'academic',
      label: 'Academic preparation',
      count: 2,
      mean: 4,
      spread: 1,
      min: 3,
      max: 5,
    });
  });

  it('starts a third read only past the gap', () => {
    expect(needsThirdRead([4, 2.5], 1)).toBe(true);
    expect(needsThirdRead([4, 3], 1)).toBe(false);
    expect(needsThirdRead([4, null], 1)).toBe(false);
    expect(needsThirdRead([5, 1], undefined)).toBe(false);
  });

  it('names a band', () => {
    const bands = [
      { label: 'Strong', min: 4 },
      { label: 'Fair', min: 2 },
    ];
    expect(scoreBand(bands, 4.2)).toBe('Strong');
    expect(scoreBand(bands, 2)).toBe('Fair');
    expect(scoreBand(bands, 1.5)).toBeNull();
  });

  it('takes blind answers out', () => {
    expect(withoutBlindAnswers(form, { academic: '5', comments: 'x', other: 'y' })).toEqual({
      other: 'y',
    });
  });
});

describe('review configuration', () => {
  it('defaults to the built-in form and picks a cycle’s own', () => {
    const review = reviewConfigSchema.parse({});
    expect(reviewFormConfigFor(review, 'FA26')).toBe(review.forms[0]);
    const own = { ...DEFAULT_REVIEW_FORM, cycle: 'FA26', version: 2 };
    const withOwn = reviewConfigSchema.parse({ forms: [DEFAULT_REVIEW_FORM, own] });
    expect(reviewFormConfigFor(withOwn, 'FA26').version).toBe(2);
    expect(reviewFormConfigFor(withOwn, 'SP27').cycle).toBe('*');
  });

  it('refuses a form without scores, a scale upside down, a key used twice and bands out of order', () => {
    const bad = reviewConfigSchema.safeParse({
      forms: [
        {
          cycle: '*',
          version: 1,
          items: [
            { kind: 'score', key: 'a', label: 'A', min: 5, max: 1 },
            { kind: 'text', key: 'a', label: 'Again' },
          ],
        },
      ],
      score_bands: [
        { label: 'Low', min: 1 },
        { label: 'High', min: 4 },
      ],
    });
    expect(bad.success).toBe(false);
    const messages = bad.error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        'forms.0.items.0.max: max must be above min',
        'forms.0.items.1.key: is used twice',
        'score_bands.1.min: bands go from the highest min down',
      ]),
    );
    expect(
      reviewConfigSchema.safeParse({
        forms: [{ cycle: '*', version: 1, items: [{ kind: 'text', key: 'a', label: 'A' }] }],
      }).success,
    ).toBe(false);
  });
});
