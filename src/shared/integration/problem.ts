import { z } from 'zod';

/**
 * An error answered to an integrator, as RFC 9457 (`application/problem+json`) says: `title`
 * names the kind, `detail` says what to fix, and `errors` points at each field at fault.
 */
export const problemSchema = z
  .object({
    type: z
      .string()
      .describe('A URI naming the kind of problem; `about:blank` when the status says it all.'),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    instance: z.string().optional(),
    errors: z
      .array(
        z.object({
          pointer: z
            .string()
            .optional()
            .describe('A JSON Pointer into the request body, e.g. `#/sis_id`.'),
          parameter: z
            .string()
            .optional()
            .describe('The query or path parameter at fault, e.g. `cursor`.'),
          detail: z.string(),
        }),
      )
      .optional(),
  })
  .meta({ id: 'Problem' });
export type Problem = z.infer<typeof problemSchema>;

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
