import { z } from 'zod';
import { STAFF_MESSAGES } from '../../../shared/staff/staff-api';

/**
 * How long a new read-only link works, as the form holds it (text): the server's rule for
 * `days` in createServiceLinkSchema, whole days from 1 to 30.
 */
export const linkDaysForm = z.strictObject({
  days: z
    .string()
    .trim()
    .regex(/^\d{1,2}$/, STAFF_MESSAGES.linkDaysInvalid)
    .refine((value) => Number(value) >= 1 && Number(value) <= 30, STAFF_MESSAGES.linkDaysInvalid),
});
