import { AuthCard } from './auth-card';

function ConfirmPage() {
  return (
    <AuthCard title="Confirm Your Account">
      <p>Enter the 6-digit confirmation code we emailed to you.</p>
    </AuthCard>
  );
}

export { ConfirmPage as Component };
