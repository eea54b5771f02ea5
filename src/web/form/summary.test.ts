import { describe, expect, it } from 'vitest';
import { applicationModel } from '../../shared/application/application-model';
import { buildSummary, keyPlaces, summaryForPage } from './summary';

const places = keyPlaces(applicationModel);
const order = applicationModel.pages.map((page) => page.route);

describe('error summary', () => {
  it('maps every key to the route of the page holding it, repeats and tabs included', () => {
    expect(places.get('first_name')?.route).toBe('/about');
    expect(places.get('military_branch_3_end_date')?.route).toBe('/about');
    expect(places.get('college_2_name')?.route).toBe('/education');
    expect(places.get('personal_statement_doc')?.route).toBe('/education');
    expect(places.get('legal_agree')?.route).toBe('/final-steps');
    expect(places.get('no_such_key')).toBeUndefined();
  });

  it('links errors to /{page}#{key} grouped by page in the order of the form', () => {
    const summary = buildSummary(
      {
        legal_agree: ['Please certify that your application is complete and true.'],
        applied_major: ['Please select your program of study.'],
        last_name: ['Please enter your last name.'],
        first_name: ['Please enter your first name.'],
      },
      places,
      order,
    );
    expect(summary.count).toBe(4);
    expect(summary.pages.map((page) => page.title)).toEqual([
      'About You',
      'Your Academics',
      'Final Steps',
    ]);
    expect(summary.pages[0]?.links.map((link) => link.href)).toEqual([
      '/about#first_name',
      '/about#last_name',
    ]);
    expect(summary.pages[1]?.links[0]).toEqual({
      key: 'applied_major',
      message: 'Please select your program of study.',
      href: '/education#applied_major',
    });
  });

  it('reports errors of keys on no page as plain text, and each message once', () => {
    const summary = buildSummary(
      { _: ['Something else is wrong.'], first_name: ['Required.', 'Required.'] },
      places,
      order,
    );
    expect(summary.unplaced).toEqual([{ key: '_', message: 'Something else is wrong.' }]);
    expect(summary.pages[0]?.links).toHaveLength(1);
    expect(summary.count).toBe(2);
  });

  it('puts the errors of the page the applicant is on first, the other pages after in order', () => {
    const summary = buildSummary(
      {
        legal_agree: ['Please certify that your application is complete and true.'],
        applied_major: ['Please select your program of study.'],
        first_name: ['Please enter your first name.'],
      },
      places,
      order,
    );
    const onEducation = summaryForPage(summary, '/education');
    expect(onEducation.current?.title).toBe('Your Academics');
    expect(onEducation.others.map((page) => page.title)).toEqual(['About You', 'Final Steps']);
    const onAbout = summaryForPage(summary, '/about');
    expect(onAbout.current?.links.map((link) => link.key)).toEqual(['first_name']);
    expect(onAbout.others.map((page) => page.route)).toEqual(['/education', '/final-steps']);
  });

  it('has no current group on a page without errors', () => {
    const summary = buildSummary({ first_name: ['Please enter your first name.'] }, places, order);
    expect(summaryForPage(summary, '/final-steps')).toEqual({
      current: null,
      others: summary.pages,
    });
  });
});
