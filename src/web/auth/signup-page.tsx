import { AuthCard } from './auth-card';

function SignupPage() {
  return (
    <AuthCard title="Create Account">
      <p>Create an account to save your answers and submit your application.</p>
    </AuthCard>
  );
}

export { SignupPage as Component };
