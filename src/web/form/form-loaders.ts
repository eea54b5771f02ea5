import { type LoaderFunctionArgs, redirect } from 'react-router';
import { COMPLETION_ROUTE, DEFAULT_ROUTE } from '../../shared/routes';
import { lastPageTarget } from '../app-state/client-snapshot';
import type { FormSession } from '../app-state/form-session';

/**
 * Before a form page renders (spec 000 section 2): a submitted application goes to /completion;
 * the saved last page is restored on the first page of a log-in; a signed-in student's tab
 * choices and add-another counts are loaded, and answers typed before signing in are carried in.
 */
export function createFormLoader(session: FormSession) {
  return async function formLoader({ request }: LoaderFunctionArgs): Promise<null> {
    const profile = await session.loadProfile();
    const url = new URL(request.url);
    const snapshot = session.snapshot.get();
    if (snapshot.isLoggedIn && snapshot.webStatus === 'submitted') throw redirect(COMPLETION_ROUTE);
    const target = lastPageTarget(snapshot, url.pathname);
    if (snapshot.isLoggedIn) session.snapshot.markLastPageHandled();
    if (target) throw redirect(`${target}${url.search}`);
    if (profile) await Promise.all([session.loadContainers(), session.carryInAnswers()]);
    return null;
  };
}

/** /completion is for a submitted application only; anyone else goes to the default route. */
export function createCompletionLoader(session: FormSession) {
  return async function completionLoader(): Promise<null> {
    await session.loadProfile();
    const snapshot = session.snapshot.get();
    if (!(snapshot.isLoggedIn && snapshot.webStatus === 'submitted')) throw redirect(DEFAULT_ROUTE);
    return null;
  };
}

/**
 * The account screens (spec 000 section 2: a submitted application is sent to /completion from
 * wherever the student is): signed in and submitted, there is nothing to sign in or up for.
 */
export function createAuthLoader(session: FormSession) {
  return async function authLoader(): Promise<null> {
    await session.loadProfile();
    const snapshot = session.snapshot.get();
    if (snapshot.isLoggedIn && snapshot.webStatus === 'submitted') throw redirect(COMPLETION_ROUTE);
    return null;
  };
}
