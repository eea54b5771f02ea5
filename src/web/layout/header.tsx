import { useTenantConfig } from '../data/tenant';
import { AccountPopover } from './account-popover';
import styles from './header.module.css';

export function Header() {
  const tenant = useTenantConfig();

  return (
    <header className={styles.header}>
      <div className={styles.inner}>
        <a className={styles.brand} href={tenant.urls.home}>
          <span className={styles.partner}>{tenant.partner_name}</span>
          <span className={styles.product}>Transfer Application</span>
        </a>
        <AccountPopover />
      </div>
    </header>
  );
}
