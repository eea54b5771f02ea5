import type { QueryClient } from '@tanstack/react-query';
import { type LoaderFunctionArgs, redirect } from 'react-router';
import { COMPLETION_ROUTE, DEFAULT_ROUTE } from '../../shared/routes';
import { getClientSnapshot, lastPageTarget, markLastPageHandled } from './client-snapshot';
import { carryInAnswers, loadContainers, loadProfile } from './form-session';

/**
 * Before a form page renders (spec 000 section 2): a submitted application goes to /completion;
 * the saved last page is restored on the first page of a log-in; a signed-in student's tab
 * choices and add-another counts are loaded, and answers typed before signing in are carried in.
 */
export function createFormLoader(queryClient: QueryClient) {
  return async function formLoader({ request }: LoaderFunctionArgs): Promise<null> {
    const profile = await loadProfile(queryClient);
    const url = new URL(request.url);
    const snapshot = getClientSnapshot();
    if (snapshot.isLoggedIn && snapshot.webStatus === 'submitted') throw redirect(COMPLETION_ROUTE);
    const target = lastPageTarget(snapshot, url.pathname);
    if (snapshot.isLoggedIn) markLastPageHandled();
    if (target) throw redirect(`${target}${url.search}`);
    if (profile) await Promise.all([loadContainers(queryClient), carryInAnswers(queryClient)]);
    return null;
  };
}

/** /completion is for a submitted application only; anyone else goes to the default route. */
export function createCompletionLoader(queryClient: QueryClient) {
  return async function completionLoader(): Promise<null> {
    await loadProfile(queryClient);
    const snapshot = getClientSnapshot();
    if (!(snapshot.isLoggedIn && snapshot.webStatus === 'submitted')) throw redirect(DEFAULT_ROUTE);
    return null;
  };
}

/**
 * The account screens (spec 000 section 2: a submitted application is sent to /completion from
 * wherever the student is): signed in and submitted, there is nothing to sign in or up for.
 */
export function createAuthLoader(queryClient: QueryClient) {
  return async function authLoader(): Promise<null> {
    await loadProfile(queryClient);
    const snapshot = getClientSnapshot();
    if (snapshot.isLoggedIn && snapshot.webStatus === 'submitted') throw redirect(COMPLETION_ROUTE);
    return null;
  };
}
