import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useId, useState } from 'react';
import {
  type ApplicationDetail,
  CHECKLIST_STATE_LABELS,
  CHECKLIST_STATES,
  type Checklist,
  type ChecklistItem,
  type ChecklistState,
} from '../../../shared/staff/application-api';
import { cx } from '../../ui/cx';
import consoleStyles from '../shell/console.module.css';
import { formatDateTime } from '../shell/page-heading';
import { meQueryOptions } from '../shell/staff-calls';
import { FormAlert, serverMessage } from '../shell/staff-form';
import { applicationCalls, applicationKeys } from './application-calls';
import styles from './application-page.module.css';
import {
  checklistAnnouncement,
  checklistSetText,
  missingText,
  nextAnnouncement,
  shownState,
} from './checklist-text';

export function ChecklistSection({ id, checklist }: { id: string; checklist: Checklist }) {
  const { data: me } = useQuery({ ...meQueryOptions, enabled: false });
  const canMark = me?.permissions.includes('checklist.mark') ?? false;
  const [announcement, setAnnouncement] = useState('');
  const announce = useCallback(
    (text: string) => setAnnouncement((previous) => nextAnnouncement(previous, text)),
    [],
  );
  return (
    <section aria-labelledby="checklist-title" className={cx(styles.panel, styles.checklist)}>
      <h2 id="checklist-title" className={styles.panelTitle}>
        Checklist
      </h2>
      <p className={consoleStyles.muted}>{missingText(checklist.missing)}</p>
      <p role="status" className={styles.announcement}>
        {announcement}
      </p>
      {checklist.items.length === 0 ? (
        <p>This application has no checklist items.</p>
      ) : (
        <ul className={styles.items}>
          {checklist.items.map((item) => (
            <ChecklistRow
              key={item.key}
              id={id}
              item={item}
              canMark={canMark}
              onMarked={announce}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function ChecklistRow({
  id,
  item,
  canMark,
  onMarked,
}: {
  id: string;
  item: ChecklistItem;
  canMark: boolean;
  onMarked: (text: string) => void;
}) {
  const queryClient = useQueryClient();
  const labelId = useId();
  const setById = useId();
  const [failure, setFailure] = useState<string | null>(null);
  const mark = useMutation({
    mutationFn: (state: ChecklistState) => applicationCalls.mark(id, item.key, state),
    onSuccess: (checklist, state) => {
      queryClient.setQueryData<ApplicationDetail>(applicationKeys.detail(id), (old) =>
        old ? { ...old, checklist } : old,
      );
      onMarked(checklistAnnouncement(item.label, state));
      void queryClient.invalidateQueries({ queryKey: applicationKeys.history(id) });
    },
    onError: (error) => setFailure(serverMessage(error)),
  });
  const shown = shownState(item.state, mark.isPending ? mark.variables : undefined);

  return (
    <li className={styles.item} data-state={item.state}>
      <p id={labelId} className={styles.itemLabel}>
        {item.label}
      </p>
      <p className={styles.itemState}>
        <span className={cx(styles.badge, styles[`badge-${item.state}`])}>
          {CHECKLIST_STATE_LABELS[item.state]}
        </span>{' '}
        <span id={setById} className={styles.setBy}>
          {checklistSetText(item, formatDateTime)}
        </span>
      </p>
      {canMark ? (
        <fieldset aria-labelledby={labelId} aria-describedby={setById} className={styles.states}>
          {CHECKLIST_STATES.map((state) => (
            <button
              key={state}
              type="button"
              aria-pressed={shown === state}
              className={cx(styles.stateButton, shown === state && styles.stateButtonOn)}
              onClick={() => {
                if (mark.isPending || state === item.state) return;
                setFailure(null);
                mark.mutate(state);
              }}
            >
              {CHECKLIST_STATE_LABELS[state]}
            </button>
          ))}
        </fieldset>
      ) : null}
      <FormAlert message={failure} />
    </li>
  );
}
