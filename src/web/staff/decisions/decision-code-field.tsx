import type { UseQueryResult } from '@tanstack/react-query';
import type { DecisionCodeView } from '../../../shared/staff/decision-api';
import authStyles from '../../ui/form-controls.module.css';
import styles from '../shell/console.module.css';
import { FormAlert, serverMessage } from '../shell/staff-form';

/** The tenant's decision codes as a labelled select: one control for one application or a list. */
export function DecisionCodeField({
  id,
  label,
  codes,
  value,
  onChange,
}: {
  id: string;
  label: string;
  codes: UseQueryResult<DecisionCodeView[]>;
  value: string;
  onChange: (code: string) => void;
}) {
  return (
    <div className={authStyles.field}>
      <label htmlFor={id} className={authStyles.label}>
        {label}
      </label>
      {codes.isError ? (
        <FormAlert message={serverMessage(codes.error)} />
      ) : (
        <select
          id={id}
          className={styles.select}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        >
          <option value="">{codes.isPending ? 'Loading the codes...' : 'Choose one'}</option>
          {codes.data?.map((code) => (
            <option key={code.code} value={code.code}>
              {code.label}
            </option>
          ))}
        </select>
      )}
    </div>
  );
}
