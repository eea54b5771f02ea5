import { describe, expect, it } from 'vitest';
import { numberedInstances, text, textarea } from './items';

describe('the question builders', () => {
  it('number add-another instances, the first under the plain prefix', () => {
    expect(numberedInstances('hs', 'High School', 3)).toEqual([
      { prefix: 'hs_', label: 'High School 1' },
      { prefix: 'hs_2_', label: 'High School 2' },
      { prefix: 'hs_3_', label: 'High School 3' },
    ]);
  });

  it('make text questions with their extras', () => {
    expect(text('city', 'City', { maxLength: 20 })).toEqual({
      kind: 'field',
      key: 'city',
      widget: 'text',
      label: 'City',
      maxLength: 20,
    });
    expect(textarea('essay', 'Essay').widget).toBe('textarea');
  });
});
