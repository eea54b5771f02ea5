import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { GENERIC_SERVER_ERROR_MESSAGE } from '../../shared/api/errors';
import {
  SERVICE_LINK_REFUSED_MESSAGE,
  type ServiceView,
  serviceViewSchema,
  serviceViewUrl,
} from '../../shared/api/service';
import { getJson, ServerError, UnauthorizedError } from '../data/http-client';

export type ReadOnlyData = { ok: true; view: ServiceView } | { ok: false; message: string };

/**
 * The application a staff link reads. A refusal is an answer, not an error: a 401 here means the
 * link, not a session, so it must not reach the query cache's log-out handling.
 */
export async function fetchReadOnlyData(token: string): Promise<ReadOnlyData> {
  try {
    const body = await getJson<unknown>(serviceViewUrl(token));
    const parsed = serviceViewSchema.safeParse(body);
    return parsed.success
      ? { ok: true, view: parsed.data }
      : { ok: false, message: GENERIC_SERVER_ERROR_MESSAGE };
  } catch (error) {
    if (error instanceof UnauthorizedError)
      return { ok: false, message: SERVICE_LINK_REFUSED_MESSAGE };
    if (error instanceof ServerError) return { ok: false, message: error.message };
    throw error;
  }
}

export const readOnlyQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['read-only-view', token],
    queryFn: () => fetchReadOnlyData(token),
  });

/** Before a form route renders for a staff link: the data and the view's code, in parallel. */
export async function loadReadOnlyView(queryClient: QueryClient, token: string): Promise<void> {
  await Promise.all([
    queryClient.ensureQueryData(readOnlyQueryOptions(token)),
    import('./read-only-view'),
  ]);
}
