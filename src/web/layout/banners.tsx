import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { Link, useNavigate } from 'react-router';
import { useFormSession } from '../app-state/form-session-context';
import { statusQueryKeys } from '../data/status-keys';
import { type BannerContent, type BannerKind, bannersFor } from '../form/banners';
import { useStore } from '../state/create-store';
import styles from './banners.module.css';

/** The lines under the titles of spec 001 section 1 (the spec gives their topics, not their words). */
const LINES: Record<Exclude<BannerKind, 'returning'> | 'thanksDecided', string> = {
  thanks:
    'Congratulations on submitting your application! Our admissions team will review it and email you about your next steps.',
  // Once the office has decided, "will review it" would contradict the decision below.
  thanksDecided:
    'Congratulations on submitting your application! The admissions office has made its decision, below.',
  welcome:
    'Good news: as a transfer applicant you do not need to write an admission essay for most programs, and applications completed early receive priority consideration.',
  welcomeBack:
    'Your answers are saved. Finish your application now to be considered as soon as possible.',
  firstTime:
    'Transfer applicants are students who have earned college credits after graduating from high school. If you earned your college credits while still in high school (dual enrollment), please apply as a freshman applicant instead.',
};

/** Spec 001 section 1: the banners above the form pages, under their display rules. */
export function Banners() {
  const { snapshot, answers } = useFormSession();
  const isLoggedIn = useStore(snapshot.store, (current) => current.isLoggedIn);
  const webStatus = useStore(snapshot.store, (current) => current.webStatus);
  const numLogins = useStore(snapshot.store, (current) => current.numLogins);
  const hasChangedPage = useStore(snapshot.store, (current) => current.hasChangedPage);
  // Only the thanks banner shows the name: before submitting, typing a first name (a keystroke
  // each letter) must not re-render the banners above the page.
  const showsName = isLoggedIn && webStatus === 'submitted';
  const subscribeFirstName = useCallback(
    (listener: () => void) =>
      showsName ? answers.subscribeKey('first_name', listener) : () => undefined,
    [answers, showsName],
  );
  const readFirstName = useCallback(() => {
    const value = showsName ? answers.get('first_name') : '';
    return typeof value === 'string' ? value : '';
  }, [answers, showsName]);
  const firstName = useSyncExternalStore(subscribeFirstName, readFirstName, readFirstName);
  const banners = bannersFor({ isLoggedIn, webStatus, numLogins, hasChangedPage }, firstName);
  if (banners.length === 0) return null;
  return (
    <div className={styles.banners}>
      {banners.map((banner) => (
        <Banner key={banner.kind} banner={banner} />
      ))}
    </div>
  );
}

/** Whether the status page has read a released decision (its query, shared through the cache). */
function useDecisionReleased(): boolean {
  const queryClient = useQueryClient();
  const subscribe = useCallback(
    (listener: () => void) => queryClient.getQueryCache().subscribe(listener),
    [queryClient],
  );
  const read = () => queryClient.getQueryData(statusQueryKeys.decision) != null;
  return useSyncExternalStore(subscribe, read, read);
}

function Banner({ banner }: { banner: BannerContent }) {
  const session = useFormSession();
  const navigate = useNavigate();
  const decided = useDecisionReleased();
  return (
    <div className={banner.kind === 'thanks' ? styles.success : styles.banner}>
      <p className={styles.title}>{banner.title}</p>
      {banner.kind === 'returning' ? (
        <p className={styles.line}>
          <Link
            to="/login"
            className={styles.link}
            onClick={(event) => {
              // The answers typed so far, taken when the link is followed, not at each render.
              const answers = session.anonymousAnswers();
              if (!answers || event.button !== 0 || event.metaKey || event.ctrlKey) return;
              if (event.shiftKey || event.altKey) return;
              event.preventDefault();
              navigate('/login', { state: { answers } });
            }}
          >
            Log in
          </Link>{' '}
          to continue where you left off. Answers you entered here come along.
        </p>
      ) : (
        <p className={styles.line}>
          {LINES[banner.kind === 'thanks' && decided ? 'thanksDecided' : banner.kind]}
        </p>
      )}
    </div>
  );
}
