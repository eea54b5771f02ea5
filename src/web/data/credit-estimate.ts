import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { GENERIC_SERVER_ERROR_MESSAGE } from '../../shared/api/errors';
import {
  type ApplicantRequirements,
  CREDIT_ESTIMATE_URL,
  CREDIT_REQUIREMENTS_URL,
  type ReleasedEstimate,
} from '../../shared/credit/credit-api';
import { REQUIREMENT_STATUSES } from '../../shared/credit/credit-requirements';
import { getJson, ServerError } from './http-client';
import { STATUS_REFRESH_MS } from './status';

/*
 * The applicant's transfer credit: the estimate once released (null before, as if there were
 * none) and the requirements the tenant shows applicants, computed from their own entries. Read
 * again like the status: an evaluator releases while the page may be open.
 */

export const creditEstimateKeys = {
  estimate: ['credit-estimate'],
  requirements: ['credit-requirements'],
} as const;

const requirementSchema = z.object({
  id: z.string(),
  label: z.string(),
  kind: z.string(),
  status: z.enum(REQUIREMENT_STATUSES),
  reason: z.string(),
  show_to_applicant: z.boolean(),
});

/** What the page reads of an estimate; the rest of the snapshot is in its PDF. */
const releasedEstimateSchema = z.object({
  released_at: z.string(),
  evaluation: z.object({
    totals: z.object({ credit_units: z.string(), pending_credit_units: z.string() }),
    requirements: z.array(requirementSchema),
  }),
});

async function parsed<T>(path: string, schema: z.ZodType<unknown>, signal?: AbortSignal) {
  const result = schema.safeParse(await getJson<unknown>(path, signal));
  if (!result.success) throw new ServerError(GENERIC_SERVER_ERROR_MESSAGE, null);
  // Checked for what the page reads; the server's type describes the rest.
  return result.data as T;
}

const refreshing = {
  staleTime: 0,
  refetchOnMount: 'always',
  refetchOnWindowFocus: 'always',
  refetchInterval: STATUS_REFRESH_MS,
} as const;

export const creditEstimateQueryOptions = queryOptions<ReleasedEstimate | null>({
  queryKey: creditEstimateKeys.estimate,
  queryFn: ({ signal }) =>
    parsed<ReleasedEstimate | null>(CREDIT_ESTIMATE_URL, releasedEstimateSchema.nullable(), signal),
  ...refreshing,
});

export const creditRequirementsQueryOptions = queryOptions<ApplicantRequirements>({
  queryKey: creditEstimateKeys.requirements,
  queryFn: ({ signal }) =>
    parsed<ApplicantRequirements>(
      CREDIT_REQUIREMENTS_URL,
      z.object({ requirements: z.array(requirementSchema) }),
      signal,
    ),
  ...refreshing,
});
