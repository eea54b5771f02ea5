import { AuthCard } from './auth-card';

function ForgotPage() {
  return (
    <AuthCard title="Forgot Password">
      <p>Enter your email address and we will send you a link to reset your password.</p>
    </AuthCard>
  );
}

export { ForgotPage as Component };
