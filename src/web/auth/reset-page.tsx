import { AuthCard } from './auth-card';

function ResetPage() {
  return (
    <AuthCard title="Reset Password">
      <p>Choose a new password for your account.</p>
    </AuthCard>
  );
}

export { ResetPage as Component };
