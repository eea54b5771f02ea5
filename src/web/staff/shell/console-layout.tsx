import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useRef, useState } from 'react';
import { Link, NavLink, useMatches } from 'react-router';
import { ROLE_LABELS } from '../../../shared/staff/permissions';
import type { StaffMeResponse } from '../../../shared/staff/staff-api';
import { useTenantConfig } from '../../data/tenant';
import headerStyles from '../../frame/header.module.css';
import { ShellBoundary, ShellFrame, useShellScreen } from '../../frame/shell-frame';
import { ErrorDialog } from '../../modal/error-dialog';
import { Button } from '../../ui/button';
import { cx } from '../../ui/cx';
import styles from './console.module.css';
import { QueueCount } from './queue-count';
import { meQueryOptions } from './staff-calls';
import {
  SIGNED_IN_ROUTE_ID,
  STAFF_AUDIT_ROUTE,
  STAFF_EQUIVALENCIES_ROUTE,
  STAFF_FEEDS_ROUTE,
  STAFF_HOME_ROUTE,
  STAFF_INTEGRATIONS_ROUTE,
  STAFF_QUEUE_ROUTE,
  STAFF_READING_ROUTE,
  STAFF_TEAM_ROUTE,
  STAFF_WEBHOOKS_ROUTE,
} from './staff-session';
import { useSignOut } from './use-sign-out';

/** The shell around every console page: skip link, header (with the member once signed in), main. */
export function ConsoleLayout() {
  return (
    <ShellBoundary>
      <Shell />
    </ShellBoundary>
  );
}

function Shell() {
  const signedIn = useMatches().some((match) => match.id === SIGNED_IN_ROUTE_ID);
  // Read from the cache only: the signed-in pages' loader put the member there.
  const { data: me } = useQuery({ ...meQueryOptions, enabled: false });
  useShellScreen();

  return (
    <ShellFrame
      before={<ConsoleHeader member={signedIn ? me : undefined} />}
      mainClassName={styles.main}
    />
  );
}

function ConsoleHeader({ member }: { member: StaffMeResponse | undefined }) {
  const tenant = useTenantConfig();
  return (
    <header className={headerStyles.header}>
      <div className={cx(headerStyles.inner, styles.headerInner)}>
        <Link className={headerStyles.brand} to={STAFF_HOME_ROUTE}>
          <span className={headerStyles.partner}>{tenant.partner_name}</span>
          <span className={headerStyles.product}>Admissions Console</span>
        </Link>
        {member ? <MemberArea member={member} /> : null}
      </div>
      {member ? <ConsoleNav member={member} /> : null}
    </header>
  );
}

function MemberArea({ member }: { member: StaffMeResponse }) {
  const signOut = useSignOut();
  const [pending, setPending] = useState(false);
  const [failed, setFailed] = useState(false);
  const button = useRef<HTMLButtonElement>(null);

  async function onSignOut() {
    setPending(true);
    try {
      await signOut('user');
    } catch {
      setFailed(true);
      setPending(false);
    }
  }

  return (
    <div className={styles.member}>
      <p className={styles.memberText}>
        <span className={styles.memberEmail}>{member.email}</span>
        <span className={styles.memberRole}>{ROLE_LABELS[member.role]}</span>
      </p>
      <Button ref={button} type="button" variant="secondary" onClick={onSignOut} disabled={pending}>
        {pending ? 'Signing out...' : 'Sign out'}
      </Button>
      <ErrorDialog
        open={failed}
        onOpenChange={setFailed}
        returnFocusRef={button}
        message="We could not sign you out just now. Please check your connection and try again. If this keeps happening, close every browser window to end your session."
      />
    </div>
  );
}

function ConsoleNav({ member }: { member: StaffMeResponse }) {
  const links: { to: string; label: string; shown: boolean; after?: ReactNode }[] = [
    { to: STAFF_HOME_ROUTE, label: 'Applications', shown: true },
    {
      to: STAFF_QUEUE_ROUTE,
      label: 'My queue',
      shown: member.permissions.includes('reviews.read'),
      after: <QueueCount />,
    },
    {
      to: STAFF_READING_ROUTE,
      label: 'Reading',
      shown: member.permissions.includes('reviews.assign'),
    },
    {
      to: STAFF_TEAM_ROUTE,
      label: 'Staff',
      shown: member.permissions.includes('staff.manage'),
    },
    {
      to: STAFF_AUDIT_ROUTE,
      label: 'Audit log',
      shown: member.permissions.includes('audit.read'),
    },
    {
      to: STAFF_EQUIVALENCIES_ROUTE,
      label: 'Equivalency tables',
      shown: member.permissions.includes('credit.tables'),
    },
    {
      to: STAFF_INTEGRATIONS_ROUTE,
      label: 'API clients',
      shown: member.permissions.includes('integrations.manage'),
    },
    {
      to: STAFF_WEBHOOKS_ROUTE,
      label: 'Webhooks',
      shown: member.permissions.includes('integrations.manage'),
    },
    {
      to: STAFF_FEEDS_ROUTE,
      label: 'Feeds',
      shown: member.permissions.includes('integrations.manage'),
    },
  ].filter((link) => link.shown);
  return (
    <nav aria-label="Console" className={styles.nav}>
      <ul className={styles.navList}>
        {links.map((link) => (
          <li key={link.to}>
            <NavLink
              to={link.to}
              end
              className={({ isActive }) => cx(styles.navLink, isActive && styles.navLinkActive)}
            >
              {link.label}
              {link.after}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
