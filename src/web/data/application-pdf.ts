import { queryOptions } from '@tanstack/react-query';
import {
  type ApplicationPdfStatus,
  applicationPdfStatusSchema,
  isApplicationPdfPending,
} from '../../shared/api/application-pdf';
import { GENERIC_SERVER_ERROR_MESSAGE } from '../../shared/api/errors';
import { PDF_POLL_ACTIVE_MS, PDF_POLL_IDLE_MS } from '../../shared/constants';
import { getJson, ServerError } from './http-client';

export const applicationPdfQueryKey = ['application-pdf'] as const;

/** GET /api/pdf, its answer parsed with the schema the server answers with. */
export async function fetchApplicationPdfStatus(
  signal?: AbortSignal,
): Promise<ApplicationPdfStatus> {
  const parsed = applicationPdfStatusSchema.safeParse(await getJson<unknown>('/api/pdf', signal));
  if (!parsed.success) throw new ServerError(GENERIC_SERVER_ERROR_MESSAGE, null);
  return parsed.data;
}

/**
 * Spec 000 section 4: every 1000 ms while the PDF is unprocessed or in progress (or not known
 * yet), then every 600000 ms.
 */
export function applicationPdfPollInterval(status: ApplicationPdfStatus | undefined): number {
  return !status || isApplicationPdfPending(status.status) ? PDF_POLL_ACTIVE_MS : PDF_POLL_IDLE_MS;
}

export const applicationPdfQueryOptions = queryOptions({
  queryKey: applicationPdfQueryKey,
  queryFn: ({ signal }) => fetchApplicationPdfStatus(signal),
  // The status is only worth what the server says now: a cached COMPLETED may be out of date.
  staleTime: 0,
  refetchOnMount: 'always',
  refetchInterval: (query) => applicationPdfPollInterval(query.state.data),
});
