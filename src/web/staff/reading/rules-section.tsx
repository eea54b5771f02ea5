import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import type { OptionItem } from '../../../shared/form/model';
import type { ReaderLoad } from '../../../shared/review/review-api';
import { ServerError } from '../../data/http-client';
import { Button } from '../../ui/button';
import controls from '../../ui/form-controls.module.css';
import { FieldErrors } from '../../ui/text-field';
import { readersQuery } from '../committee/committee-calls';
import styles from '../shell/console.module.css';
import { FormAlert, serverMessage } from '../shell/staff-form';
import reading from './reading.module.css';
import { readingCalls, readingKeys, type StoredRule } from './reading-calls';
import { conditionSentence, programOptions, stateOptions } from './rule-condition';
import { draftOf, emptyDraft, moved, type RuleDraft, rulesOf } from './rule-drafts';

const newId = () => crypto.randomUUID();

/** The assignment rules, in the order they are tried; saved all at once. */
export function RulesSection() {
  const titleId = useId();
  const rules = useQuery({ queryKey: readingKeys.rules, queryFn: readingCalls.rules });
  const readers = useQuery(readersQuery);
  return (
    <section className={styles.section} aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.sectionTitle}>
        Assignment rules
      </h2>
      <p className={styles.muted}>
        Rules are tried in this order: an application goes to the readers of the first enabled rule
        it matches.
      </p>
      {rules.isPending || readers.isPending ? (
        <p className={styles.muted}>Loading the rules...</p>
      ) : rules.isError ? (
        <FormAlert message={serverMessage(rules.error)} />
      ) : readers.isError ? (
        <FormAlert message={serverMessage(readers.error)} />
      ) : (
        <RulesEditor stored={rules.data} readers={readers.data.readers} />
      )}
    </section>
  );
}

function RulesEditor({ stored, readers }: { stored: StoredRule[]; readers: ReaderLoad[] }) {
  const queryClient = useQueryClient();
  const [drafts, setDrafts] = useState<RuleDraft[]>(() =>
    stored.map((rule) => draftOf(rule, newId())),
  );
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const options = useMemo(() => ({ programs: programOptions(), states: stateOptions() }), []);

  const save = useMutation({
    mutationFn: readingCalls.saveRules,
    onSuccess: async () => {
      setStatus('The rules are saved.');
      await queryClient.invalidateQueries({ queryKey: readingKeys.rules });
    },
    onError: (error) => {
      // The server names a rule's problem by its place (`rules.2.reader_ids`): shown on that rule.
      if (error instanceof ServerError && error.errors) {
        const byRule: Record<string, string[]> = {};
        for (const [path, messages] of Object.entries(error.errors)) {
          const index = /^rules\.(\d+)/.exec(path)?.[1];
          const draft = index === undefined ? undefined : drafts[Number(index)];
          if (draft) byRule[draft.localId] = [...(byRule[draft.localId] ?? []), ...messages];
        }
        setErrors(byRule);
      }
      setFailure(serverMessage(error));
    },
  });

  const change = (localId: string, patch: Partial<RuleDraft>) =>
    setDrafts((current) =>
      current.map((draft) => (draft.localId === localId ? { ...draft, ...patch } : draft)),
    );

  const onSave = () => {
    if (save.isPending) return;
    setStatus('');
    setFailure(null);
    const checked = rulesOf(drafts);
    if (!checked.ok) {
      setErrors(checked.errors);
      setFailure('Some rules need changes before they can be saved; see each rule.');
      return;
    }
    setErrors({});
    save.mutate({ rules: checked.rules });
  };

  return (
    <>
      <FormAlert message={failure} />
      <p role="status" className={styles.statusLine}>
        {status}
      </p>
      {drafts.length === 0 ? <p className={styles.muted}>No rules yet.</p> : null}
      <ol className={reading.rules}>
        {drafts.map((draft, index) => (
          <li key={draft.localId}>
            <RuleFields
              draft={draft}
              position={index + 1}
              isFirst={index === 0}
              isLast={index === drafts.length - 1}
              readers={readers}
              options={options}
              errors={errors[draft.localId] ?? []}
              onChange={(patch) => change(draft.localId, patch)}
              onMove={(by) => {
                setDrafts((current) => moved(current, index, by));
                setStatus(`Rule ${draft.name || index + 1} moved ${by < 0 ? 'up' : 'down'}.`);
              }}
              onRemove={() => {
                setDrafts((current) => current.filter((item) => item.localId !== draft.localId));
                setStatus(`Rule ${draft.name || index + 1} removed. Save the rules to keep this.`);
              }}
            />
          </li>
        ))}
      </ol>
      <div className={styles.inlineButtons}>
        <Button
          type="button"
          variant="secondary"
          onClick={() => setDrafts((current) => [...current, emptyDraft(newId())])}
        >
          Add a rule
        </Button>
        <Button
          type="button"
          variant="primary"
          aria-disabled={save.isPending || undefined}
          onClick={onSave}
        >
          {save.isPending ? 'Saving...' : 'Save the rules'}
        </Button>
      </div>
    </>
  );
}

function RuleFields({
  draft,
  position,
  isFirst,
  isLast,
  readers,
  options,
  errors,
  onChange,
  onMove,
  onRemove,
}: {
  draft: RuleDraft;
  position: number;
  isFirst: boolean;
  isLast: boolean;
  readers: ReaderLoad[];
  options: { programs: OptionItem[]; states: OptionItem[] };
  errors: string[];
  onChange: (patch: Partial<RuleDraft>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const id = `rule-${draft.localId}`;
  const title = `Rule ${position}${draft.name ? `: ${draft.name}` : ''}`;
  // A reader already in the rule stays offered even once disabled, so it can be taken out.
  const offered = readers.filter(
    (reader) => !reader.disabled || draft.readerIds.includes(reader.id),
  );
  const selected = (select: HTMLSelectElement) =>
    [...select.selectedOptions].map((option) => option.value);
  return (
    <fieldset className={reading.rule} aria-describedby={`${id}-error`}>
      <legend className={reading.ruleTitle}>{title}</legend>
      <p className={styles.muted}>{conditionSentence(draft.choices, options)}</p>
      <FieldErrors id={`${id}-error`} errors={errors} />
      <div className={styles.formRow}>
        <div className={controls.field}>
          <label htmlFor={`${id}-name`} className={controls.label}>
            Name
          </label>
          <div className={controls.control}>
            <input
              id={`${id}-name`}
              className={controls.input}
              value={draft.name}
              maxLength={80}
              required
              onChange={(event) => onChange({ name: event.target.value })}
            />
          </div>
        </div>
        <div className={controls.field}>
          <label htmlFor={`${id}-cap`} className={controls.label}>
            Most open reads per reader (optional)
          </label>
          <div className={controls.control}>
            <input
              id={`${id}-cap`}
              className={controls.input}
              inputMode="numeric"
              value={draft.cap}
              onChange={(event) => onChange({ cap: event.target.value })}
            />
          </div>
        </div>
      </div>
      <div className={styles.formRow}>
        <div className={controls.field}>
          <label htmlFor={`${id}-programs`} className={controls.label}>
            Programs (none: any program)
          </label>
          <select
            id={`${id}-programs`}
            multiple
            size={6}
            className={styles.select}
            value={draft.choices.programs}
            onChange={(event) =>
              onChange({
                choices: { ...draft.choices, programs: selected(event.currentTarget) },
              })
            }
          >
            {options.programs.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <div className={controls.field}>
          <label htmlFor={`${id}-states`} className={controls.label}>
            States or territories (none: anywhere)
          </label>
          <select
            id={`${id}-states`}
            multiple
            size={6}
            className={styles.select}
            value={draft.choices.states}
            onChange={(event) =>
              onChange({ choices: { ...draft.choices, states: selected(event.currentTarget) } })
            }
          >
            {options.states.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <fieldset className={reading.readers}>
        <legend>Readers</legend>
        {offered.map((reader) => (
          <label key={reader.id} className={styles.checkbox}>
            <input
              type="checkbox"
              checked={draft.readerIds.includes(reader.id)}
              onChange={(event) =>
                onChange({
                  readerIds: event.target.checked
                    ? [...draft.readerIds, reader.id]
                    : draft.readerIds.filter((readerId) => readerId !== reader.id),
                })
              }
            />
            <span>
              {reader.name}
              {reader.disabled ? <span className={styles.muted}> (disabled)</span> : null}
            </span>
          </label>
        ))}
      </fieldset>
      <label className={styles.checkbox}>
        <input
          type="checkbox"
          checked={draft.enabled}
          onChange={(event) => onChange({ enabled: event.target.checked })}
        />
        <span>Enabled</span>
      </label>
      <div className={styles.inlineButtons}>
        <Button
          type="button"
          variant="secondary"
          className={styles.smallButton}
          aria-label={`Move up: ${title}`}
          aria-disabled={isFirst || undefined}
          onClick={() => {
            if (!isFirst) onMove(-1);
          }}
        >
          Move up
        </Button>
        <Button
          type="button"
          variant="secondary"
          className={styles.smallButton}
          aria-label={`Move down: ${title}`}
          aria-disabled={isLast || undefined}
          onClick={() => {
            if (!isLast) onMove(1);
          }}
        >
          Move down
        </Button>
        <Button
          type="button"
          variant="secondary"
          className={styles.smallButton}
          aria-label={`Remove: ${title}`}
          onClick={onRemove}
        >
          Remove
        </Button>
      </div>
    </fieldset>
  );
}
