import { useId, useState } from 'react';
import type { PublicTenantConfig } from '../../shared/tenant/tenant-config';
import { ExternalLink } from '../ui/external-link';
import { readAnalyticsOptOut, writeAnalyticsOptOut } from './analytics-opt-out';
import styles from './modal-content.module.css';

export const NO_ANALYTICS_TEXT = 'This site uses no analytics.';

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

export function PrivacyContent({ tenant }: { tenant: PublicTenantConfig }) {
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
        <p>This application itself sets only two cookies, both needed for it to work:</p>
        <ul>
          <li>a session cookie that keeps you signed in while you work on your application;</li>
          <li>
            a cookie that records that you are signed in, so the page knows to show your account.
          </li>
        </ul>
        <p>
          It sets no advertising cookies. Answers you enter before you create an account are kept in
          this browser until you sign up or sign in.
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
      <section aria-labelledby="privacy-analytics">
        <h3 id="privacy-analytics">Analytics</h3>
        {tenant.analytics ? (
          <AnalyticsOptOut partnerName={tenant.partner_name} analytics={tenant.analytics} />
        ) : (
          <p>{NO_ANALYTICS_TEXT}</p>
        )}
      </section>
    </div>
  );
}

/** Spec 001 section 1: the cookie notice offers an analytics opt-out. */
function AnalyticsOptOut({
  partnerName,
  analytics,
}: {
  partnerName: string;
  analytics: NonNullable<PublicTenantConfig['analytics']>;
}) {
  const [optedOut, setOptedOut] = useState(readAnalyticsOptOut);
  const [refused, setRefused] = useState(false);
  const checkboxId = useId();
  const statusId = useId();

  function choose(optOut: boolean) {
    const stored = writeAnalyticsOptOut(optOut);
    setRefused(!stored);
    if (stored) setOptedOut(optOut);
  }

  return (
    <>
      <p>
        {partnerName} measures how this site is used with {analytics.name}, which may set cookies of
        its own. Read{' '}
        <ExternalLink href={analytics.policy_url}>
          how {analytics.name} handles your data
        </ExternalLink>
        .
      </p>
      <div className={styles.choice}>
        <input
          id={checkboxId}
          type="checkbox"
          checked={optedOut}
          aria-describedby={statusId}
          onChange={(event) => choose(event.target.checked)}
        />
        <label htmlFor={checkboxId}>Do not measure my visits with {analytics.name}</label>
      </div>
      <p id={statusId} role="status">
        {refused
          ? 'This browser did not let us store your choice, so it could not be kept.'
          : optedOut
            ? `Your visits from this browser are not measured with ${analytics.name}.`
            : 'Your choice is kept in this browser only, not in a cookie.'}
      </p>
    </>
  );
}
