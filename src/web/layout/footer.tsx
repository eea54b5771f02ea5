import { useTenantConfig } from '../data/tenant';
import { Modal } from '../modal/modal';
import { Button } from '../ui/button';
import styles from './footer.module.css';
import { HelpContent } from './help-content';
import { PrivacyContent } from './privacy-content';

/** The footer's links, each opening its text in a dialog. */
const footerDialogs = [
  { title: 'Help', Content: HelpContent },
  { title: 'Privacy', Content: PrivacyContent },
] as const;

export function Footer() {
  const tenant = useTenantConfig();

  return (
    <footer className={styles.footer}>
      <div className={styles.inner}>
        <ul className={styles.actions}>
          {footerDialogs.map(({ title, Content }) => (
            <li key={title}>
              <Modal
                title={title}
                size="s"
                trigger={
                  <Button type="button" variant="link">
                    {title}
                  </Button>
                }
              >
                <Content tenant={tenant} />
              </Modal>
            </li>
          ))}
        </ul>
        <p className={styles.copyright}>
          © {new Date().getFullYear()} {tenant.partner_name}
        </p>
      </div>
    </footer>
  );
}
