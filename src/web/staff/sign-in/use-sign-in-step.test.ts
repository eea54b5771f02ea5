import { describe, expect, it } from 'vitest';
import { stageRoute } from './use-sign-in-step';

describe('signing in step by step', () => {
  it('goes on to the page of the next step of signing in', () => {
    expect(stageRoute('enrol')).toBe('/staff/enrol');
    expect(stageRoute('second_factor')).toBe('/staff/sign-in/code');
    expect(stageRoute('signed_in')).toBe('/staff');
    expect(stageRoute(undefined)).toBe('/staff');
  });
});
