import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ApplicationReviews, ReadView } from '../../../shared/review/review-api';
import { DEFAULT_REVIEW_FORM, type ReviewFormConfig } from '../../../shared/review/review-config';
import { buildReviewForm } from '../../../shared/review/review-form';
import { FormErrorSummary } from '../shell/staff-form';
import { ReviewFields, shownFields } from './review-fields';
import { summaryOf } from './review-logic';
import { LoadedReviews } from './review-panel';

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

const codes = [
  { value: 'admit', label: 'Admit' },
  { value: 'deny', label: 'Deny' },
];
const controlId = (key: string) => `r-${key}`;
const noop = () => {};

function withClient(node: ReactNode): string {
  const client = new QueryClient();
  return renderToStaticMarkup(<QueryClientProvider client={client}>{node}</QueryClientProvider>);
}

const conditional: ReviewFormConfig = {
  cycle: '*',
  version: 1,
  title: 'Review',
  items: [
    {
      kind: 'score',
      key: 'academic',
      label: 'Academic preparation',
      min: 1,
      max: 4,
      weight: 1,
      required: true,
      blind: true,
    },
    {
      kind: 'choice',
      key: 'concern',
      label: 'Any concern?',
      options: [
        { value: 'yes', label: 'Yes' },
        { value: 'no', label: 'No' },
      ],
      required: false,
      blind: false,
    },
    {
      kind: 'text',
      key: 'concern_detail',
      label: 'Describe the concern',
      multiline: true,
      max_length: 500,
      required: false,
      blind: false,
      show_when: { valueKey: 'concern', operator: 'equals', target: 'yes' },
    },
  ],
};

function read(overrides: Partial<ReadView>): ReadView {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    application_id: 'app-1',
    round: 'first',
    status: 'draft',
    reader_id: 'me',
    reader_name: 'Pat Lee',
    form_cycle: '*',
    form_version: 1,
    answers: {},
    assigned_at: '2026-11-20T08:00:00.000Z',
    saved_at: null,
    submitted_at: null,
    blinded: false,
    ...overrides,
  };
}

function reviews(overrides: Partial<ApplicationReviews>): ApplicationReviews {
  return {
    form: DEFAULT_REVIEW_FORM,
    decision_codes: codes,
    mine: null,
    others: [],
    can_start: false,
    ...overrides,
  };
}

describe('the review form drawn from the engine', () => {
  it('hides a field whose condition does not hold', () => {
    const form = buildReviewForm(conditional, codes);
    const draw = (answers: Record<string, string>) =>
      renderToStaticMarkup(
        <ReviewFields
          form={form}
          answers={answers}
          errors={{}}
          onChange={noop}
          controlId={controlId}
        />,
      );
    expect(textOf(draw({}))).not.toContain('Describe the concern');
    expect(textOf(draw({ concern: 'no' }))).not.toContain('Describe the concern');
    const shown = draw({ concern: 'yes', concern_detail: 'Late transcript' });
    expect(textOf(shown)).toContain('Describe the concern');
    expect(textOf(shown)).toContain('15 of 500 characters');
    expect(shownFields(form, {}).map((place) => place.key)).toEqual(['academic', 'concern']);
  });

  it('titles a section one level below the panel’s own heading (h2), so no level is skipped', () => {
    const form = buildReviewForm(DEFAULT_REVIEW_FORM, codes);
    const html = renderToStaticMarkup(
      <ReviewFields form={form} answers={{}} errors={{}} onChange={noop} controlId={controlId} />,
    );
    expect(html).toMatch(/<h3 [^>]*>Scores<\/h3>/);
    expect(html).not.toMatch(/<h[4-6]/);
  });

  it('offers each point of a scale and nothing outside it, as radios in a fieldset', () => {
    const form = buildReviewForm(DEFAULT_REVIEW_FORM, codes);
    const html = renderToStaticMarkup(
      <ReviewFields
        form={form}
        answers={{ academic: '4' }}
        errors={{}}
        onChange={noop}
        controlId={controlId}
      />,
    );
    const values = [...html.matchAll(/name="r-academic"(?: checked="")? value="(\d+)"/g)].map(
      (match) => match[1],
    );
    expect(values).toEqual(['1', '2', '3', '4', '5']);
    expect(html).toMatch(/<fieldset[^>]*><legend[^>]*>Academic preparation/);
    expect(html).toMatch(/checked="" value="4"/);
    expect(textOf(html)).toContain('Academic preparation (required)');
    expect(textOf(html)).toContain('1 Weak');
    // The recommendation: a select of the tenant's decision codes.
    expect(html).toMatch(/<select id="r-recommendation"[^>]*required/);
    expect(html).toContain('<option value="admit">Admit</option>');
  });

  it('shows each message under its field and in a summary that can take the focus', () => {
    const form = buildReviewForm(DEFAULT_REVIEW_FORM, codes);
    const errors = { writing: ['Choose a score from 1 to 5.'], recommendation: ['Pick one.'] };
    const fields = renderToStaticMarkup(
      <ReviewFields
        form={form}
        answers={{}}
        errors={errors}
        onChange={noop}
        controlId={controlId}
      />,
    );
    expect(fields).toContain('id="r-writing-error"');
    expect(textOf(fields)).toContain(
      'Personal statement (required) Error: Choose a score from 1 to 5.',
    );
    expect(fields).toMatch(/<select id="r-recommendation"[^>]*aria-invalid="true"/);
    const summary = renderToStaticMarkup(
      <FormErrorSummary entries={summaryOf(shownFields(form, {}), errors, controlId)} ref={noop} />,
    );
    expect(summary).toContain('tabindex="-1"');
    expect(textOf(summary)).toBe(
      'There is a problem Personal statement: Choose a score from 1 to 5. Recommendation: Pick one.',
    );
    expect(summary).toContain('href="#r-writing"');
  });
});

describe('the review panel', () => {
  it('shows a submitted read read-only, with its weighted score', () => {
    const html = withClient(
      <LoadedReviews
        applicationId="app-1"
        announce={noop}
        data={reviews({
          mine: read({
            status: 'submitted',
            submitted_at: '2026-11-21T10:00:00.000Z',
            answers: {
              academic: '5',
              coursework_fit: '3',
              writing: '1',
              trajectory: '3',
              recommendation: 'admit',
            },
          }),
        })}
      />,
    );
    expect(html).not.toMatch(/<(input|select|textarea|button)\b/);
    const text = textOf(html);
    expect(text).toContain('First read: submitted');
    expect(text).toContain('Weighted score 3.33');
    expect(text).toContain('Recommendation Admit');
    expect(text).toContain('Comments for the committee Not answered');
  });

  it('draws a draft as a form with its actions', () => {
    const html = withClient(
      <LoadedReviews
        applicationId="app-1"
        announce={noop}
        data={reviews({ mine: read({ answers: { academic: '2' } }) })}
      />,
    );
    expect(html).toMatch(/checked="" value="2"/);
    expect(textOf(html)).toContain('Submit read Save draft');
    expect(html).toContain('role="status"');
  });

  it('offers to start a read only where the member may', () => {
    const may = textOf(
      withClient(
        <LoadedReviews applicationId="a" announce={noop} data={reviews({ can_start: true })} />,
      ),
    );
    expect(may).toContain('Start a read');
    const mayNot = textOf(
      withClient(<LoadedReviews applicationId="a" announce={noop} data={reviews({})} />),
    );
    expect(mayNot).toContain('This application is not in your queue.');
    expect(mayNot).not.toContain('Start a read');
  });

  it('lists other reads, saying when their scores are hidden', () => {
    const text = textOf(
      withClient(
        <LoadedReviews
          applicationId="a"
          announce={noop}
          data={reviews({
            mine: read({}),
            others: [
              read({
                id: 'o1',
                reader_name: 'Sam Roe',
                round: 'second',
                status: 'submitted',
                blinded: true,
                answers: {},
              }),
              read({
                id: 'o2',
                reader_name: 'Kim Yu',
                round: 'third',
                status: 'submitted',
                score: 4.5,
                recommendation: 'deny',
              }),
            ],
          })}
        />,
      ),
    );
    expect(text).toContain(
      'Other reads Sam Roe Second read (blind) Submitted Scores hidden until you submit your read',
    );
    expect(text).toContain('Kim Yu Third read Submitted Weighted score 4.5 , recommends Deny');
  });
});
