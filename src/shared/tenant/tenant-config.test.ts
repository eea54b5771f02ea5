import { describe, expect, it } from 'vitest';
import { DEFAULT_COURSEWORK_RULES } from '../coursework/coursework-rules';
import { contrastRatio } from './contrast';
import {
  DEFAULT_THEME_COLOURS,
  describeConfigIssues,
  tenantConfigSchema,
  themeCustomProperties,
} from './tenant-config';

const shades = (main: string) => ({
  extraLight: '#f7f7f8',
  light: '#d9dbe0',
  main,
  dark: '#1f2329',
});

/** A configuration written before the white, error and disabled colours existed. */
const sample = {
  partner_name: 'Northfield State University',
  help_email: 'apply-help@northfield.example.edu',
  transcript_email: 'transcripts@northfield.example.edu',
  phones: { admissions: '(555) 201-4400', help: '(555) 201-4455' },
  admissions_address: {
    name: 'Office of Undergraduate Admissions',
    line_1: '1200 College Avenue',
    city: 'Northfield',
    state: 'PA',
    zip: '19001',
  },
  urls: {
    home: 'https://www.northfield.example.edu',
    privacy: 'https://www.northfield.example.edu/privacy',
    pdf_reader: 'https://get.adobe.com/reader/',
    application_fee: 'https://pay.northfield.example.edu/application-fee',
  },
  theme: {
    primary: shades('#0b3d91'),
    secondary: shades('#b7791f'),
    accent: shades('#1d7a5f'),
    neutral: shades('#5c6270'),
  } as Record<string, unknown>,
};

function withTheme(theme: Record<string, unknown>) {
  return { ...sample, theme: { ...sample.theme, ...theme } };
}

describe('theme colours', () => {
  it('gives a configuration without white, error and disabled their defaults', () => {
    expect(sample.theme).not.toHaveProperty('error');
    const { theme } = tenantConfigSchema.parse(sample);
    expect(theme.white).toEqual(DEFAULT_THEME_COLOURS.white);
    expect(theme.error).toEqual(DEFAULT_THEME_COLOURS.error);
    expect(theme.disabled).toEqual(DEFAULT_THEME_COLOURS.disabled);
  });

  it('sends every colour to the stylesheets, the new ones included', () => {
    const { theme } = tenantConfigSchema.parse(
      withTheme({
        disabled: { extraLight: '#eeeeee', light: '#cccccc', main: '#666666', dark: '#333333' },
      }),
    );
    const properties = themeCustomProperties(theme);
    expect(properties['--color-disabled-extra-light']).toBe('#eeeeee');
    expect(properties['--color-error-main']).toBe(DEFAULT_THEME_COLOURS.error.main);
    expect(properties['--color-white-main']).toBe('#ffffff');
    expect(properties['--color-primary-main']).toBe('#0b3d91');
  });

  it('takes a tenant’s own error colours when their text stays readable', () => {
    const error = { extraLight: '#fff1f0', light: '#ffa39e', main: '#cf1322', dark: '#820014' };
    expect(tenantConfigSchema.parse(withTheme({ error })).theme.error).toEqual(error);
  });

  it('refuses error colours whose text or icons would be hard to read, naming the shade', () => {
    const faint = { extraLight: '#fff5f5', light: '#ffd6d6', main: '#ff9c9c', dark: '#e57373' };
    const result = tenantConfigSchema.safeParse(withTheme({ error: faint }));
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(describeConfigIssues(result.error)).toEqual([
      'theme.error.dark: must contrast at least 4.5:1 with error.extraLight (it is 2.8:1)',
      'theme.error.dark: must contrast at least 4.5:1 with white.main (it is 3.0:1)',
      'theme.error.main: must contrast at least 3:1 with white.main (it is 2.0:1)',
    ]);
  });
});

describe('contrast ratio', () => {
  it('follows WCAG 2: 21:1 for black on white, 1:1 for a colour on itself, in either order', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#fff', '#000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#0b3d91', '#0b3d91')).toBe(1);
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });
});

describe('coursework rules', () => {
  it('are the defaults when the tenant sets none', () => {
    expect(sample).not.toHaveProperty('coursework');
    expect(tenantConfigSchema.parse(sample).coursework).toEqual(DEFAULT_COURSEWORK_RULES);
  });

  it('take the rules a tenant changes and keep the defaults of the others', () => {
    const { coursework } = tenantConfigSchema.parse({
      ...sample,
      coursework: { repeat_policy: 'highest', quarter_to_semester: 0.667 },
    });
    expect(coursework).toEqual({
      ...DEFAULT_COURSEWORK_RULES,
      repeat_policy: 'highest',
      quarter_to_semester: 0.667,
    });
  });

  it('refuse a rule set that contradicts itself, naming each broken rule', () => {
    const result = tenantConfigSchema.safeParse({
      ...sample,
      coursework: {
        lowest_transferable_grade: 'E',
        pass_grades: ['P', 'CR', 'S', 'W'],
        quarter_to_semester: 0,
      },
    });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(describeConfigIssues(result.error)).toEqual([
      'coursework.lowest_transferable_grade: E is not a grade of grade_points',
      'coursework.unfinished_grades.0: W is also in pass_grades: a grade must be in one list only',
      'coursework.quarter_to_semester: must be above 0 (it is 0)',
    ]);
  });

  it('refuse a malformed rule by its name', () => {
    const result = tenantConfigSchema.safeParse({
      ...sample,
      coursework: { repeat_policy: 'first', grade_points: { A: 'four' } },
    });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(describeConfigIssues(result.error).map((line) => line.split(':')[0])).toEqual([
      'coursework.grade_points.A',
      'coursework.repeat_policy',
    ]);
  });
});
