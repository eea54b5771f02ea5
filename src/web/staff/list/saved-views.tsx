import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { z } from 'zod';
import { type SavedView, savedViewSchema } from '../../../shared/staff/application-api';
import { Button } from '../../ui/button';
import { cx } from '../../ui/cx';
import { TextField } from '../../ui/text-field';
import styles from '../shell/console.module.css';
import { FormAlert, FormErrorSummary, serverMessage, useStaffForm } from '../shell/staff-form';
import { listQueryFromSearch, listQueryString } from './application-filters';
import list from './list.module.css';
import { listCalls, listKeys } from './list-calls';

const FIELDS = { name: { id: 'saved-view-name', label: 'Name of this view' } } as const;
const nameForm = z.strictObject({ name: savedViewSchema.shape.name });

/** A saved query as the address writes it, so the view in use can be recognised. */
function sameView(view: SavedView, search: string): boolean {
  return listQueryString(listQueryFromSearch(new URLSearchParams(view.query))) === search;
}

/**
 * The member's named views of the list: a view is the list's query string, so applying one is
 * following a link, and saving one keeps the address as it is now (without the page).
 */
export function SavedViews({ search }: { search: string }) {
  const queryClient = useQueryClient();
  const views = useQuery({ queryKey: listKeys.savedViews, queryFn: listCalls.savedViews });
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  // A new form after each save, so the name box is empty again.
  const [formKey, setFormKey] = useState(0);
  const title = useRef<HTMLHeadingElement>(null);

  const remove = useMutation({
    mutationFn: (view: SavedView) => listCalls.deleteView(view.id),
    onSuccess: async (_reply, view) => {
      setStatus(`The view “${view.name}” is deleted.`);
      // Its button is gone: the focus goes back to the section rather than to the page's end.
      title.current?.focus();
      await queryClient.invalidateQueries({ queryKey: listKeys.savedViews });
    },
    onError: (error) => setFailure(serverMessage(error)),
  });

  return (
    <section className={styles.section} aria-labelledby="views-title">
      <h2
        id="views-title"
        ref={title}
        tabIndex={-1}
        className={cx(styles.sectionTitle, list.focusTitle)}
      >
        Saved views
      </h2>
      <FormAlert message={failure} />
      <p role="status" className={styles.statusLine}>
        {status}
      </p>
      {views.isPending ? (
        <p className={styles.muted}>Loading your views...</p>
      ) : views.isError ? (
        <FormAlert message={serverMessage(views.error)} />
      ) : views.data.length === 0 ? (
        <p className={styles.muted}>
          No saved views yet. Search or filter the list, then save the view to come back to it.
        </p>
      ) : (
        <ul className={list.views} aria-label="Your views">
          {views.data.map((view) => {
            const current = sameView(view, search);
            return (
              <li key={view.id} className={list.view}>
                <Link
                  to={`?${view.query}`}
                  className={cx(list.viewLink, current && list.viewCurrent)}
                  aria-current={current ? 'true' : undefined}
                >
                  {view.name}
                </Link>
                <button
                  type="button"
                  className={cx(styles.linkButton, list.viewDelete)}
                  aria-label={`Delete the view ${view.name}`}
                  disabled={remove.isPending}
                  onClick={() => {
                    setFailure(null);
                    setStatus('');
                    remove.mutate(view);
                  }}
                >
                  Delete
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <SaveViewForm
        key={formKey}
        search={search}
        onSaved={(view) => {
          setFailure(null);
          setStatus(`The view “${view.name}” is saved.`);
          setFormKey((key) => key + 1);
        }}
      />
    </section>
  );
}

function SaveViewForm({ search, onSaved }: { search: string; onSaved: (view: SavedView) => void }) {
  const queryClient = useQueryClient();
  const form = useStaffForm<{ name: string }>(nameForm, { name: '' }, FIELDS);
  const [failure, setFailure] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (name: string) => listCalls.saveView({ name, query: search }),
    onSuccess: async (view) => {
      await queryClient.invalidateQueries({ queryKey: listKeys.savedViews });
      onSaved(view);
    },
    // A taken name (409) or a refused query (400) is said in the server's words.
    onError: (error) => setFailure(form.showServerError(error)),
  });
  return (
    <>
      <FormErrorSummary entries={form.summary} ref={form.summaryRef} />
      <FormAlert message={failure} />
      <form
        noValidate
        className={styles.inlineForm}
        aria-label="Save this view"
        onSubmit={form.submit(({ name }) => {
          setFailure(null);
          save.mutate(name.trim());
        })}
      >
        <TextField
          id={FIELDS.name.id}
          label={FIELDS.name.label}
          hint="The search, filters and order as they are now."
          autoComplete="off"
          maxLength={80}
          className={list.viewName}
          required
          markRequired
          binding={form.field('name')}
        />
        <Button type="submit" variant="secondary" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save this view'}
        </Button>
      </form>
    </>
  );
}
