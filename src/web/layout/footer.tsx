import { useTenantConfig } from '../data/tenant';
import { Modal } from '../modal/modal';
import buttonStyles from '../ui/button.module.css';
import styles from './footer.module.css';
import { HelpContent } from './help-content';
import { PrivacyContent } from './privacy-content';

export function Footer() {
  const tenant = useTenantConfig();

  return (
    <footer className={styles.footer}>
      <div className={styles.inner}>
        <ul className={styles.actions}>
          <li>
            <Modal
              title="Help"
              size="s"
              trigger={
                <button type="button" className={buttonStyles.link}>
                  Help
                </button>
              }
            >
              <HelpContent tenant={tenant} />
            </Modal>
          </li>
          <li>
            <Modal
              title="Privacy"
              size="s"
              trigger={
                <button type="button" className={buttonStyles.link}>
                  Privacy
                </button>
              }
            >
              <PrivacyContent tenant={tenant} />
            </Modal>
          </li>
        </ul>
        <p className={styles.copyright}>
          © {new Date().getFullYear()} {tenant.partner_name}
        </p>
      </div>
    </footer>
  );
}
