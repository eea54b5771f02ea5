import { useTenantConfig } from '../data/tenant';
import styles from '../frame/header.module.css';
import { AccountPopover } from './account-popover';

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
