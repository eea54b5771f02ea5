import { describe, expect, it } from 'vitest';
import { formatMoment } from './format-time';

describe('a moment as the applicant reads it', () => {
  it('gives the date, the time and the name of the zone it is read in', () => {
    expect(formatMoment('2026-11-20T15:00:00.000Z')).toMatch(
      /^November (19|20|21), 2026 at \d{1,2}:\d{2}\s[AP]M\s\S+$/,
    );
  });

  it('leaves what is not a moment as it came', () => {
    expect(formatMoment('soon')).toBe('soon');
  });
});
