import { PASSWORD_REQUIREMENTS } from '../../shared/accounts/account-forms';
import { PasswordField } from './password-field';
import { PasswordRequirements } from './password-requirements';
import type { FieldBinding } from './use-account-form';

const REQUIREMENT_MESSAGES: ReadonlySet<string> = new Set(
  PASSWORD_REQUIREMENTS.map((requirement) => requirement.message),
);

interface NewPasswordFieldProps {
  id: string;
  label: string;
  binding: FieldBinding;
  markRequired?: boolean;
}

/**
 * A password being chosen (sign-up, reset): the toggle plus the six requirement rows. The rows
 * are how rule failures show, so only other messages (such as the maximum length) repeat as
 * errors below the input; the input is marked invalid either way once its errors are revealed.
 */
export function NewPasswordField({ id, label, binding, markRequired }: NewPasswordFieldProps) {
  const requirementsId = `${id}-requirements`;
  return (
    <PasswordField
      id={id}
      label={label}
      autoComplete="new-password"
      required
      markRequired={markRequired}
      describedBy={[requirementsId]}
      invalid={binding.errors.length > 0}
      binding={{
        ...binding,
        errors: binding.errors.filter((message) => !REQUIREMENT_MESSAGES.has(message)),
      }}
    >
      <PasswordRequirements id={requirementsId} password={binding.value} />
    </PasswordField>
  );
}
