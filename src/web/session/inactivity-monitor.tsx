import { useProfile } from '../data/profile';
import { onDemand } from '../ui/on-demand';

// The prompt and its timers are for signed-in applicants: a new visitor's first page goes without.
const signedInMonitor = onDemand(() => import('./signed-in-inactivity-monitor'));

/** Spec 000 section 4: the inactivity time-out runs only while someone is logged in. */
export function InactivityMonitor() {
  const profile = useProfile();
  const SignedInInactivityMonitor = signedInMonitor.useLoaded(profile !== null);
  return profile && SignedInInactivityMonitor ? (
    <SignedInInactivityMonitor key={profile.username} />
  ) : null;
}
