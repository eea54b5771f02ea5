import { useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import { type BannerContent, type BannerKind, bannersFor } from '../form/banners';
import { useClientSnapshot } from '../form/client-snapshot';
import { anonymousAnswers, answerStore } from '../form/form-session';
import styles from './banners.module.css';

const subscribeFirstName = (listener: () => void) =>
  answerStore.subscribeKey('first_name', listener);
const readFirstName = () => {
  const value = answerStore.get('first_name');
  return typeof value === 'string' ? value : '';
};

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
  const isLoggedIn = useClientSnapshot((snapshot) => snapshot.isLoggedIn);
  const webStatus = useClientSnapshot((snapshot) => snapshot.webStatus);
  const numLogins = useClientSnapshot((snapshot) => snapshot.numLogins);
  const hasChangedPage = useClientSnapshot((snapshot) => snapshot.hasChangedPage);
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
  return (
    <div className={banner.kind === 'thanks' ? styles.success : styles.banner}>
      <p className={styles.title}>{banner.title}</p>
      {banner.kind === 'returning' ? (
        <p className={styles.line}>
          <Link to="/login" state={loginState()} className={styles.link}>
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

function loginState() {
  const answers = anonymousAnswers();
  return answers ? { answers } : undefined;
}
