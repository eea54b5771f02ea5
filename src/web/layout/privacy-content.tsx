import type { TenantConfig } from '../../shared/tenant/tenant-config';
import { ExternalLink } from '../ui/external-link';
import styles from './modal-content.module.css';

const BROWSER_COOKIE_HELP = [
  { browser: 'Google Chrome', href: 'https://support.google.com/chrome/answer/95647' },
  {
    browser: 'Mozilla Firefox',
    href: 'https://support.mozilla.org/kb/clear-cookies-and-site-data-firefox',
  },
  {
    browser: 'Apple Safari',
    href: 'https://support.apple.com/guide/safari/manage-cookies-sfri11471/mac',
  },
  {
    browser: 'Microsoft Edge',
    href: 'https://support.microsoft.com/microsoft-edge/delete-cookies-in-microsoft-edge-63947406-40ac-c3b8-57b9-2a946a29ae09',
  },
] as const;

export function PrivacyContent({ tenant }: { tenant: TenantConfig }) {
  return (
    <div className={styles.sections}>
      <section aria-labelledby="privacy-policy">
        <h3 id="privacy-policy">Privacy policy</h3>
        <p>
          Read the{' '}
          <ExternalLink href={tenant.urls.privacy}>
            {tenant.partner_name} privacy policy
          </ExternalLink>{' '}
          to learn how your information is collected, used and protected.
        </p>
      </section>
      <section aria-labelledby="privacy-cookies">
        <h3 id="privacy-cookies">Cookies</h3>
        <p>This application uses only two cookies, both needed for it to work:</p>
        <ul>
          <li>a session cookie that keeps you signed in while you work on your application;</li>
          <li>
            a cookie that records that you are signed in, so the page knows to show your account.
          </li>
        </ul>
        <p>
          It does not use advertising or analytics cookies. Answers you enter before you create an
          account are kept in this browser until you sign up or sign in.
        </p>
        <p>You can view and delete cookies in your browser settings:</p>
        <ul className={styles.links}>
          {BROWSER_COOKIE_HELP.map(({ browser, href }) => (
            <li key={browser}>
              <ExternalLink href={href}>{browser} cookie settings</ExternalLink>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
