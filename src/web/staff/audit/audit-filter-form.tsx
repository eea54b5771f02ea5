import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Button, buttonClassName } from '../../ui/button';
import authStyles from '../../ui/form-controls.module.css';
import { FieldErrors, TextField } from '../../ui/text-field';
import styles from '../shell/console.module.css';
import { FormErrorSummary, useStaffForm } from '../shell/staff-form';
import { auditCalls, auditKeys } from './audit-calls';
import { type AuditFilterValues, actionLabel, auditFilterForm } from './audit-filters';

const FIELDS = {
  actor: { id: 'audit-actor', label: 'Person' },
  application: { id: 'audit-application', label: 'Application id' },
  action: { id: 'audit-action', label: 'Action' },
  from: { id: 'audit-from', label: 'From' },
  to: { id: 'audit-to', label: 'To' },
} as const;

export function FilterForm({
  initial,
  onApply,
}: {
  initial: AuditFilterValues;
  onApply: (values: AuditFilterValues) => void;
}) {
  const form = useStaffForm<AuditFilterValues>(auditFilterForm, initial, FIELDS);
  const actions = useQuery({ queryKey: auditKeys.auditActions, queryFn: auditCalls.auditActions });
  const action = form.field('action');
  const hasFilters = Object.values(initial).some((value) => value !== '');

  return (
    <section className={styles.section} aria-labelledby="filters-title">
      <h2 id="filters-title" className={styles.sectionTitle}>
        Filters
      </h2>
      <FormErrorSummary entries={form.summary} ref={form.summaryRef} />
      <form noValidate aria-labelledby="filters-title" onSubmit={form.submit(onApply)}>
        <div className={styles.formRow}>
          <TextField
            id={FIELDS.actor.id}
            label={FIELDS.actor.label}
            hint="An email address, or part of one."
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            binding={form.field('actor')}
          />
          <TextField
            id={FIELDS.application.id}
            label={FIELDS.application.label}
            autoComplete="off"
            spellCheck={false}
            binding={form.field('application')}
          />
          <div className={authStyles.field}>
            <label htmlFor={FIELDS.action.id} className={authStyles.label}>
              {FIELDS.action.label}
            </label>
            <select
              id={FIELDS.action.id}
              className={styles.select}
              value={action.value}
              aria-invalid={action.errors.length > 0 || undefined}
              aria-describedby={`${FIELDS.action.id}-error`}
              onChange={(event) => action.onValueChange(event.target.value)}
            >
              <option value="">Any action</option>
              {(actions.data ?? (action.value ? [action.value] : [])).map((name) => (
                <option key={name} value={name}>
                  {actionLabel(name)}
                </option>
              ))}
            </select>
            <FieldErrors id={`${FIELDS.action.id}-error`} errors={action.errors} />
          </div>
          <TextField
            id={FIELDS.from.id}
            label={FIELDS.from.label}
            type="date"
            binding={form.field('from')}
          />
          <TextField
            id={FIELDS.to.id}
            label={FIELDS.to.label}
            type="date"
            binding={form.field('to')}
          />
        </div>
        <div className={styles.formActions}>
          <Button type="submit" variant="primary">
            Apply filters
          </Button>
          {hasFilters ? (
            <Link to="?" className={buttonClassName('secondary')}>
              Clear filters
            </Link>
          ) : null}
        </div>
      </form>
    </section>
  );
}
