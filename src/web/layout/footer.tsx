import type { PublicTenantConfig } from '../../shared/tenant/tenant-config';
import { useTenantConfig } from '../data/tenant';
import { Modal } from '../modal/modal';
import { Button } from '../ui/button';
import { type OnDemandComponent, onDemand } from '../ui/on-demand';
import styles from './footer.module.css';

type DialogText = OnDemandComponent<{ tenant: PublicTenantConfig }>;

/**
 * The footer's links, each opening its text in a dialog. The texts load with their dialog, like
 * the dialog itself: every page has the footer, few visits open it (decision 060).
 */
const footerDialogs: ReadonlyArray<{ title: string; text: DialogText }> = [
  {
    title: 'Help',
    text: onDemand(() =>
      import('./help-content').then(({ HelpContent }) => ({ default: HelpContent })),
    ),
  },
  {
    title: 'Privacy',
    text: onDemand(() =>
      import('./privacy-content').then(({ PrivacyContent }) => ({ default: PrivacyContent })),
    ),
  },
];

function DialogBody({ text, tenant }: { text: DialogText; tenant: PublicTenantConfig }) {
  const Content = text.useLoaded(true);
  return Content ? <Content tenant={tenant} /> : null;
}

export function Footer() {
  const tenant = useTenantConfig();

  return (
    <footer className={styles.footer}>
      <div className={styles.inner}>
        <ul className={styles.actions}>
          {footerDialogs.map(({ title, text }) => (
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
                <DialogBody text={text} tenant={tenant} />
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
