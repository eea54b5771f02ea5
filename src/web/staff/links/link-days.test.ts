import { describe, expect, it } from 'vitest';
import { STAFF_MESSAGES } from '../../../shared/staff/staff-api';
import { linkDaysForm } from './link-days';

describe('read-only link days', () => {
  it('allows read-only links of 1 to 30 whole days', () => {
    for (const days of ['1', '7', '30', ' 12 ']) {
      expect(linkDaysForm.safeParse({ days }).success).toBe(true);
    }
    for (const days of ['0', '31', '2.5', '', 'ten', '100']) {
      const result = linkDaysForm.safeParse({ days });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(STAFF_MESSAGES.linkDaysInvalid);
    }
  });
});
