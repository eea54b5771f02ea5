import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import type { CreatedServiceLink, ServiceLinkSummary } from '../../../shared/staff/staff-api';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/text-field';
import styles from '../shell/console.module.css';
import { CopyButton } from '../shell/copy-button';
import { formatDateTime } from '../shell/page-heading';
import { FormAlert, FormErrorSummary, serverMessage, useStaffForm } from '../shell/staff-form';
import { linkDaysForm } from './link-days';
import { linksCalls, linksKeys } from './links-calls';

const LINK_FIELDS = { days: { id: 'link-days', label: 'Days the link works' } } as const;

const LINK_STATE_LABELS: Record<ServiceLinkSummary['state'], string> = {
  live: 'Works',
  expired: 'Expired',
  revoked: 'Revoked',
};

/** The application a read-only link opens: its id, and the address that names it to people. */
export interface LinkedApplication {
  id: string;
  email: string;
}

/** An application's read-only links for colleagues elsewhere: make, list and revoke them. */
export function ReadOnlyLinks({ application }: { application: LinkedApplication }) {
  const queryClient = useQueryClient();
  const titleId = useId();
  const links = useQuery({
    queryKey: linksKeys.links(application.id),
    queryFn: () => linksCalls.links(application.id),
    // Colleagues make and revoke links too: asked afresh whenever the application is shown.
    refetchOnMount: 'always',
  });
  const [created, setCreated] = useState<CreatedServiceLink | null>(null);
  // The link is shown once: the focus goes to it, so it is read out and easy to copy.
  const createdNotice = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (created) createdNotice.current?.focus();
  }, [created]);
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const form = useStaffForm<{ days: string }>(
    linkDaysForm,
    { days: '7' },
    {
      days: { ...LINK_FIELDS.days, id: `${LINK_FIELDS.days.id}-${application.id}` },
    },
  );

  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: linksKeys.links(application.id) });
  const create = useMutation({
    mutationFn: (days: number) => linksCalls.createLink(application.id, days),
    onSuccess: async (link) => {
      setCreated(link);
      setStatus('');
      await refresh();
    },
    onError: (error) => setFailure(form.showServerError(error)),
  });
  const revoke = useMutation({
    mutationFn: (link: ServiceLinkSummary) => linksCalls.revokeLink(application.id, link.id),
    onSuccess: async (_reply, link) => {
      if (created?.id === link.id) setCreated(null);
      setStatus(`The link created ${formatDateTime(link.created_at)} no longer works.`);
      await refresh();
    },
    onError: (error) => setFailure(serverMessage(error)),
  });

  return (
    <section aria-labelledby={titleId}>
      <h3 id={titleId} className={styles.subTitle}>
        Read-only links
      </h3>
      <FormAlert message={failure} />
      <p role="status" className={styles.statusLine}>
        {status}
      </p>
      {created ? (
        <div ref={createdNotice} tabIndex={-1} className={styles.notice}>
          <p>
            Link created; it works until {formatDateTime(created.expires_at)}. It is shown only now:
            copy it before you leave this page.
          </p>
          <p>
            <code className={styles.secret}>{created.url}</code>
          </p>
          <CopyButton text={created.url} label="Copy link" />
        </div>
      ) : null}
      {links.isPending ? (
        <p className={styles.muted}>Loading the links...</p>
      ) : links.isError ? (
        <FormAlert message={serverMessage(links.error)} />
      ) : links.data.length === 0 ? (
        <p className={styles.muted}>No read-only links yet.</p>
      ) : (
        <div className={styles.tableFrame}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Created</th>
                <th scope="col">Works until</th>
                <th scope="col">Created by</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span className="visually-hidden">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {links.data.map((link) => (
                <tr key={link.id}>
                  <td>{formatDateTime(link.created_at)}</td>
                  <td>{formatDateTime(link.expires_at)}</td>
                  <td>{link.created_by ?? <span className={styles.muted}>Unknown</span>}</td>
                  <td>
                    {LINK_STATE_LABELS[link.state]}
                    {link.revoked_at ? ` ${formatDateTime(link.revoked_at)}` : ''}
                  </td>
                  <td>
                    {link.state === 'live' ? (
                      <Button
                        type="button"
                        variant="secondary"
                        className={styles.smallButton}
                        disabled={revoke.isPending}
                        aria-label={`Revoke the link created ${formatDateTime(link.created_at)}`}
                        onClick={() => {
                          setFailure(null);
                          revoke.mutate(link);
                        }}
                      >
                        Revoke
                      </Button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <FormErrorSummary entries={form.summary} ref={form.summaryRef} />
      <form
        noValidate
        className={styles.inlineForm}
        aria-label={`New read-only link to the application of ${application.email}`}
        onSubmit={form.submit(({ days }) => {
          setFailure(null);
          create.mutate(Number(days));
        })}
      >
        <TextField
          id={`${LINK_FIELDS.days.id}-${application.id}`}
          label={LINK_FIELDS.days.label}
          hint="From 1 to 30."
          type="text"
          inputMode="numeric"
          maxLength={2}
          className={styles.daysInput}
          required
          markRequired
          binding={form.field('days')}
        />
        <Button type="submit" variant="primary" disabled={create.isPending}>
          {create.isPending ? 'Creating...' : 'Create a read-only link'}
        </Button>
      </form>
    </section>
  );
}
