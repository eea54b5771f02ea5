import { NavLink, useLocation, useNavigate } from 'react-router';
import { FORM_STEPS } from '../../shared/routes';
import { useFormSession } from '../app-state/form-session-context';
import { cx } from '../ui/cx';
import styles from './step-navigation.module.css';

/**
 * The three application steps; links replace the history entry (spec 000 section 2). An
 * anonymous visitor who has entered answers goes to sign-up instead, carrying the answers.
 */
export function StepNavigation() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const session = useFormSession();
  return (
    <nav aria-label="Application steps" className={styles.nav}>
      <ol className={styles.steps}>
        {FORM_STEPS.map((step, index) => (
          <li key={step.route} className={styles.step}>
            <NavLink
              to={step.route}
              replace
              onClick={(event) => {
                const answers = step.route === pathname ? null : session.anonymousAnswers();
                if (!answers) return;
                event.preventDefault();
                navigate('/signup', { state: { answers } });
              }}
              className={({ isActive }) => cx(styles.link, isActive && styles.active)}
            >
              <span className={styles.number} aria-hidden="true">
                {index + 1}
              </span>
              <span className={styles.label}>
                <span className="visually-hidden">Step {index + 1}: </span>
                {step.title}
              </span>
            </NavLink>
          </li>
        ))}
      </ol>
    </nav>
  );
}
