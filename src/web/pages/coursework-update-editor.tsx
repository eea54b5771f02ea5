import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { GENERIC_SERVER_ERROR_MESSAGE } from '../../shared/api/errors';
import { applicationModel } from '../../shared/application/application-model';
import {
  type CourseworkAnswer,
  courseworkCounts,
  parseCourseworkAnswer,
  serializeCourseworkAnswer,
} from '../../shared/coursework/coursework-answer';
import {
  courseworkUpdateProblems,
  describeCourseworkUpdate,
} from '../../shared/coursework/coursework-update';
import type {
  CourseworkGridView,
  CourseworkOverview,
} from '../../shared/coursework/coursework-update-api';
import type { CourseworkColumn } from '../../shared/form/model';
import { resolveModel } from '../../shared/form/resolve';
import { todayIso } from '../../shared/form/validate';
import { courseworkQueryOptions, sendCourseworkUpdate } from '../data/coursework';
import { ServerError } from '../data/http-client';
import { useTenantConfig } from '../data/tenant';
import { EMPTY_COURSEWORK } from '../form/coursework-edit';
import { CourseworkEditor } from '../form/coursework-editor';
import { courseworkLocks } from '../form/coursework-locks';
import { Button } from '../ui/button';
import { dropDraft, keepDraft, readDraft } from './coursework-update-draft';
import styles from './coursework-updates-section.module.css';
import statusStyles from './status-page.module.css';

const EVERYTHING = { answers: {}, addAnother: {}, tabs: {}, isLoggedIn: true };

/** The grid's cells as the application form asks for them. */
function gridColumns(key: string): readonly CourseworkColumn[] {
  const places = resolveModel(applicationModel, EVERYTHING);
  const place =
    places.find((candidate) => candidate.key === key && candidate.field.coursework) ??
    places.find((candidate) => candidate.field.coursework);
  return place?.field.coursework?.columns ?? [];
}

export function answerOf(text: string): CourseworkAnswer {
  const parsed = parseCourseworkAnswer(text);
  return parsed.ok && parsed.answer ? parsed.answer : EMPTY_COURSEWORK;
}

/** Every message of a refused send: the server's own, then each named line it gave. */
export function refusalOf(error: unknown): string[] {
  if (!(error instanceof ServerError)) return [GENERIC_SERVER_ERROR_MESSAGE];
  const lines = Object.values(error.errors ?? {}).flat();
  return [error.message, ...lines.filter((line) => line !== error.message)];
}

/**
 * One college's coursework drawn as the application's grid, on a draft of the update: what was
 * submitted stays as it was (see coursework-locks.ts); the checks are the server's, run here
 * first. A failed send keeps the draft as typed.
 */
export function CourseworkUpdateEditor({
  grid,
  overview,
  onSent,
  onCancel,
}: {
  grid: CourseworkGridView;
  overview: CourseworkOverview;
  onSent: (lines: string[]) => void;
  onCancel: () => void;
}) {
  const rules = useTenantConfig().coursework;
  const queryClient = useQueryClient();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const refusalRef = useRef<HTMLDivElement>(null);
  const today = useMemo(() => todayIso(), []);
  const columns = useMemo(() => gridColumns(grid.key), [grid.key]);
  const current = useMemo(() => answerOf(grid.current), [grid.current]);
  const locks = useMemo(() => courseworkLocks(current), [current]);
  // A draft kept from before a reload (or a closed editor) comes back while the grid is the same.
  const [draft, setDraft] = useState<CourseworkAnswer>(
    () => readDraft(grid.key, grid.current) ?? current,
  );
  const change = (next: CourseworkAnswer) => {
    setDraft(next);
    keepDraft(grid.key, grid.current, next);
  };
  const [checked, setChecked] = useState(false);
  const [refusal, setRefusal] = useState<string[]>([]);

  useEffect(() => heading.current?.focus(), []);

  const elsewhere = useMemo(() => {
    const counts = { courses: 0, terms: 0 };
    for (const other of overview.grids) {
      if (other.key === grid.key) continue;
      const found = courseworkCounts(answerOf(other.current));
      counts.courses += found.courses;
      counts.terms += found.terms;
    }
    return counts;
  }, [overview.grids, grid.key]);
  const problems = useMemo(
    () => courseworkUpdateProblems(current, draft, { rules, today, elsewhere }),
    [current, draft, rules, today, elsewhere],
  );
  const changes = useMemo(() => describeCourseworkUpdate(current, draft), [current, draft]);

  const send = useMutation({
    mutationFn: () =>
      sendCourseworkUpdate({ key: grid.key, value: serializeCourseworkAnswer(draft) }),
    onSuccess: (next) => {
      dropDraft(grid.key);
      queryClient.setQueryData(courseworkQueryOptions.queryKey, next);
      void queryClient.invalidateQueries({ queryKey: courseworkQueryOptions.queryKey });
      onSent(changes);
    },
    onError: (error) => {
      setRefusal(refusalOf(error));
      requestAnimationFrame(() => refusalRef.current?.focus());
    },
  });

  const onSend = () => {
    setChecked(true);
    setRefusal([]);
    if (problems.length > 0) {
      setRefusal([
        'Correct the marked entries before sending:',
        ...problems.map((problem) => problem.named),
      ]);
      requestAnimationFrame(() => refusalRef.current?.focus());
      return;
    }
    if (changes.length === 0) {
      setRefusal(['Nothing has changed yet: add a grade, a course or a term.']);
      requestAnimationFrame(() => refusalRef.current?.focus());
      return;
    }
    send.mutate();
  };

  return (
    <section className={styles.editor} aria-labelledby={headingId}>
      <h4 id={headingId} ref={heading} tabIndex={-1} className={styles.editorTitle}>
        Add grades or terms: {grid.college}
      </h4>
      <p className={statusStyles.note}>
        What you submitted stays as it was. You can add the grades of a term in progress or planned,
        mark it completed, add courses to it, and add terms.
      </p>
      <CourseworkEditor
        idBase={`update-${grid.key}`}
        label={`Courses at ${grid.college}`}
        value={draft}
        onChange={change}
        problems={checked ? problems : []}
        columns={columns}
        rules={rules}
        today={today}
        elsewhere={elsewhere}
        locks={locks}
        termHeadingLevel={5}
      />
      {changes.length > 0 ? (
        <div className={styles.changes}>
          <p className={styles.changesTitle}>Your update:</p>
          <ul className={styles.lines}>
            {changes.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {refusal.length > 0 ? (
        <div ref={refusalRef} tabIndex={-1} role="alert" className={statusStyles.alert}>
          <p className={styles.refusalTitle}>{refusal[0]}</p>
          {refusal.length > 1 ? (
            <ul className={styles.lines}>
              {refusal.slice(1).map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      <div className={styles.actions}>
        <Button type="button" variant="primary" onClick={onSend} disabled={send.isPending}>
          {send.isPending ? 'Sending...' : 'Send update'}
        </Button>
        <Button
          type="button"
          variant="secondary"
          onClick={() => {
            // Cancel gives the draft up; closing the section from its button keeps it.
            dropDraft(grid.key);
            onCancel();
          }}
        >
          Cancel
        </Button>
      </div>
    </section>
  );
}
