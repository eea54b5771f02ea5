import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { BULK_CHECKLIST_MESSAGES } from '../../../shared/staff/bulk-checklist';
import { Button } from '../../ui/button';
import authStyles from '../../ui/form-controls.module.css';
import { ConfirmDialog } from '../shell/confirm-dialog';
import styles from '../shell/console.module.css';
import { FormAlert, serverMessage } from '../shell/staff-form';
import { type ListQuery, listQueryString } from './application-filters';
import {
  type BulkTarget,
  confirmQuestion,
  listTargetProblem,
  resultSentence,
  targetLabel,
} from './bulk-checklist-logic';
import list from './list.module.css';
import { checklistItemsKey, listCalls, listKeys } from './list-calls';

interface Pending {
  itemKey: string;
  label: string;
  received: boolean;
  target: BulkTarget;
  count: number;
}

/**
 * One checklist item marked for many applications: the rows ticked in the list, or every
 * application the search and filters find. The confirmation states the count, and the server
 * refuses the mark if the list holds another number by then.
 */
export function BulkChecklistPanel({
  query,
  total,
  totalExact,
  selected,
}: {
  query: ListQuery;
  total: number | null;
  totalExact: boolean;
  selected: readonly string[];
}) {
  const queryClient = useQueryClient();
  const items = useQuery({ queryKey: checklistItemsKey, queryFn: listCalls.checklistItems });
  const itemId = useId();
  const [itemKey, setItemKey] = useState('');
  const [received, setReceived] = useState(true);
  const [chosenTarget, setTarget] = useState<BulkTarget>('selected');
  const [pending, setPending] = useState<Pending | null>(null);
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState<string | null>(null);

  // With nothing ticked the choice is the list; ticking rows makes them the choice again.
  const target: BulkTarget = selected.length === 0 ? 'list' : chosenTarget;
  const search = listQueryString(query, { paging: false });
  const listProblem = listTargetProblem(total, totalExact);

  const mark = useMutation({
    mutationFn: (chosen: Pending) =>
      listCalls.bulkMark({
        ...(chosen.target === 'selected' ? { application_ids: [...selected] } : { query: search }),
        item_key: chosen.itemKey,
        received: chosen.received,
        expected_count: chosen.count,
      }),
    onSuccess: (result, chosen) => {
      setStatus(resultSentence(result, chosen.label, chosen.received));
      // The missing counts in every list and any open application may have changed.
      void queryClient.invalidateQueries({ queryKey: listKeys.all });
      void queryClient.invalidateQueries({ queryKey: ['staff', 'application'] });
    },
    onError: (error) => setFailure(serverMessage(error)),
  });

  const ask = () => {
    if (mark.isPending) return;
    setStatus('');
    setFailure(null);
    const item = items.data?.find((one) => one.key === itemKey);
    if (!item) {
      setFailure(BULK_CHECKLIST_MESSAGES.item);
      return;
    }
    if (target === 'list' && listProblem) {
      setFailure(listProblem);
      return;
    }
    const count = target === 'selected' ? selected.length : (total ?? 0);
    setPending({ itemKey, label: item.label, received, target, count });
  };

  const confirm = () => {
    const chosen = pending;
    setPending(null);
    if (chosen) mark.mutate(chosen);
  };

  return (
    <section className={styles.section} aria-labelledby="bulk-checklist-title">
      <h2 id="bulk-checklist-title" className={styles.sectionTitle}>
        Mark checklist item
      </h2>
      <p className={styles.muted}>
        One item for many applications at once. Applications without the item are left alone.
      </p>
      <FormAlert message={failure} />
      <p role="status" className={styles.statusLine}>
        {status}
      </p>
      <div className={list.bulkGrid}>
        <div className={authStyles.field}>
          <label htmlFor={itemId} className={authStyles.label}>
            Checklist item
          </label>
          <select
            id={itemId}
            className={styles.select}
            value={itemKey}
            onChange={(event) => setItemKey(event.target.value)}
          >
            <option value="">{items.isPending ? 'Loading the items...' : 'Choose an item'}</option>
            {(items.data ?? []).map((item) => (
              <option key={item.key} value={item.key}>
                {item.label}
              </option>
            ))}
          </select>
        </div>
        <fieldset className={list.fieldset}>
          <legend className={list.legend}>Mark as</legend>
          <div className={list.checks}>
            <label className={list.check}>
              <input
                type="radio"
                name="bulk-state"
                checked={received}
                onChange={() => setReceived(true)}
              />
              Received
            </label>
            <label className={list.check}>
              <input
                type="radio"
                name="bulk-state"
                checked={!received}
                onChange={() => setReceived(false)}
              />
              Not received
            </label>
          </div>
        </fieldset>
        <fieldset className={list.fieldset}>
          <legend className={list.legend}>Applies to</legend>
          <div className={list.checks}>
            <label className={list.check}>
              <input
                type="radio"
                name="bulk-target"
                checked={target === 'selected'}
                disabled={selected.length === 0}
                onChange={() => setTarget('selected')}
              />
              {targetLabel('selected', selected.length)}
            </label>
            <label className={list.check}>
              <input
                type="radio"
                name="bulk-target"
                checked={target === 'list'}
                onChange={() => setTarget('list')}
              />
              {targetLabel('list', totalExact ? total : null)}
            </label>
          </div>
        </fieldset>
      </div>
      <Button
        type="button"
        variant="primary"
        aria-disabled={mark.isPending || undefined}
        onClick={ask}
      >
        {mark.isPending ? 'Marking...' : 'Mark checklist item'}
      </Button>
      <ConfirmDialog
        open={pending !== null}
        title="Mark checklist item"
        description={
          pending ? confirmQuestion(pending.label, pending.received, pending.count) : undefined
        }
        action={pending ? `Mark ${pending.count.toLocaleString('en-US')}` : 'Mark'}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      />
    </section>
  );
}
