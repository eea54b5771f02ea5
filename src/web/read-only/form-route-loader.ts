import type { QueryClient } from '@tanstack/react-query';
import { type LoaderFunction, type LoaderFunctionArgs, redirect } from 'react-router';
import { SERVICE_TOKEN_PARAM, TEMPORARY_ANSWERS_PARAM } from '../../shared/api/page-parameters';
import type { FormSession } from '../app-state/form-session';

/** The service token of an address, if it carries one (spec 000 section 2: page query parameters). */
export function serviceTokenOf(search: string): string | null {
  const token = new URLSearchParams(search).get(SERVICE_TOKEN_PARAM);
  return token ? token : null;
}

/**
 * The loader of every form route, around the applicant's own: `?service_token=` loads the staff
 * read-only view instead (none of the applicant's redirects apply to staff), and `?token=` loads a
 * prefilled answer set into the visitor's answers, then leaves the address without it. Both load
 * their code only when asked, so applicants' first load stays small.
 */
export function createFormRouteLoader(
  queryClient: QueryClient,
  session: FormSession,
  formLoader: (args: LoaderFunctionArgs) => Promise<null>,
): LoaderFunction {
  return async function formRouteLoader(args) {
    const url = new URL(args.request.url);
    const serviceToken = serviceTokenOf(url.search);
    if (serviceToken) {
      const { loadReadOnlyView } = await import('./read-only-data');
      await loadReadOnlyView(queryClient, serviceToken);
      return null;
    }
    const result = await formLoader(args);
    const prefillToken = url.searchParams.get(TEMPORARY_ANSWERS_PARAM);
    if (prefillToken === null) return result;
    const { loadTemporaryAnswers } = await import('../prefill/load-temporary-answers');
    await loadTemporaryAnswers(session, prefillToken);
    url.searchParams.delete(TEMPORARY_ANSWERS_PARAM);
    const search = url.searchParams.toString();
    throw redirect(`${url.pathname}${search ? `?${search}` : ''}${url.hash}`);
  };
}
