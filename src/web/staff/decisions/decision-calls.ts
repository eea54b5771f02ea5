import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { GENERIC_SERVER_ERROR_MESSAGE } from '../../../shared/api/errors';
import {
  type BatchResult,
  decisionUrls,
  staffDecisionSchema,
} from '../../../shared/staff/decision-api';
import { getJson, postJson, putJson, ServerError } from '../../data/http-client';
import { decisionCodesOf } from './decision-logic';

const batchResultSchema = z.object({
  count: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
}) satisfies z.ZodType<BatchResult>;

function parsed<T>(schema: z.ZodType<T>) {
  return (body: unknown): T => {
    const result = schema.safeParse(body);
    if (!result.success) throw new ServerError(GENERIC_SERVER_ERROR_MESSAGE, 200);
    return result.data;
  };
}

/** The decision calls, one per route of the contract in src/shared/staff/decision-api.ts. */
export const decisionCalls = {
  codes: () => getJson<unknown>(decisionUrls.codes).then(decisionCodesOf),
  record: (id: string, code: string) =>
    putJson<unknown>(decisionUrls.record(encodeURIComponent(id)), { code }).then(
      parsed(staffDecisionSchema),
    ),
  /** No `at`: released now. */
  release: (id: string, at?: string) =>
    postJson<unknown>(decisionUrls.release(encodeURIComponent(id)), at ? { at } : {}).then(
      parsed(staffDecisionSchema),
    ),
  batch: (query: string, code: string) =>
    postJson<unknown>(decisionUrls.batch, { query, code }).then(parsed(batchResultSchema)),
  batchRelease: (query: string, at?: string) =>
    postJson<unknown>(decisionUrls.batchRelease, at ? { query, at } : { query }).then(
      parsed(batchResultSchema),
    ),
};

export const decisionKeys = {
  codes: ['staff', 'decision-codes'] as const,
};

/** The tenant's codes change only with its configuration file: asked once per visit. */
export const decisionCodesQuery = queryOptions({
  queryKey: decisionKeys.codes,
  queryFn: decisionCalls.codes,
  staleTime: Number.POSITIVE_INFINITY,
});
