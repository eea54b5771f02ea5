import { z } from 'zod';
import { ADD_ANOTHER_MAX } from '../constants';
import { FORM_ROUTES } from '../routes';
import { WEB_STATUSES } from './profile';

/** Payloads of the application calls (spec 000 section 7), parsed alike by browser and server. */
export const lastPageSchema = z.strictObject({
  last_page: z.enum(FORM_ROUTES, { error: `last_page must be one of ${FORM_ROUTES.join(', ')}.` }),
});

export const tabsSchema = z.strictObject({
  tab_id: z.string().min(1).max(100),
  chosen_tab: z.string().min(1).max(100),
});

export const addAnotherSchema = z.strictObject({
  button_id: z.string().min(1).max(100),
  num_components: z
    .number({ error: 'num_components must be a whole number.' })
    .int('num_components must be a whole number.')
    .min(1, `num_components must be from 1 to ${ADD_ANOTHER_MAX}.`)
    .max(ADD_ANOTHER_MAX, `num_components must be from 1 to ${ADD_ANOTHER_MAX}.`),
});

export const webStatusSchema = z.strictObject({
  web_status: z.enum(WEB_STATUSES, {
    error: `web_status must be one of ${WEB_STATUSES.join(', ')}.`,
  }),
});

export const validationsSchema = z.strictObject({
  errors: z
    .record(z.string().max(200), z.array(z.string().max(1000)).max(50))
    .refine((errors) => Object.keys(errors).length <= 2000, 'Too many keys.'),
});
