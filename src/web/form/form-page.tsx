import { useLocation } from 'react-router';
import { FORM_STEPS } from '../../shared/routes';
import styles from './form-page.module.css';

/** One component for the three form routes; the form renderer replaces the placeholder body. */
function FormPage() {
  const { pathname } = useLocation();
  const step = FORM_STEPS.find((candidate) => candidate.route === pathname);

  return (
    <div className={styles.page}>
      <h1>{step?.title}</h1>
      <p className={styles.placeholder}>The questions for this step will appear here.</p>
    </div>
  );
}

export { FormPage as Component };
