import { useCallback, useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import type { Answers } from '../../shared/form/model';
import { type BannerContent, type BannerKind, bannersFor } from '../form/banners';
import { useFormSession } from '../form/form-session-context';
import { useStore } from '../state/create-store';
import styles from './banners.module.css';

/** The lines under the titles of spec 001 section 1 (the spec gives their topics, not their words). */
const LINES: Record<Exclude<BannerKind, 'returning'>, string> = {
  thanks:
    'Congratulations on submitting your application! Our admissions team will review it and email you about your next steps.',
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
  const subscribeFirstName = useCallback(
    (listener: () => void) => answers.subscribeKey('first_name', listener),
    [answers],
  );
  const readFirstName = () => {
    const value = answers.get('first_name');
    return typeof value === 'string' ? value : '';
  };
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

function Banner({ banner }: { banner: BannerContent }) {
  const session = useFormSession();
  return (
    <div className={banner.kind === 'thanks' ? styles.success : styles.banner}>
      <p className={styles.title}>{banner.title}</p>
      {banner.kind === 'returning' ? (
        <p className={styles.line}>
          <Link to="/login" state={loginState(session.anonymousAnswers())} className={styles.link}>
            Log in
          </Link>{' '}
          to continue where you left off. Answers you entered here come along.
        </p>
      ) : (
        <p className={styles.line}>{LINES[banner.kind]}</p>
      )}
    </div>
  );
}

function loginState(answers: Answers | null) {
  return answers ? { answers } : undefined;
}
