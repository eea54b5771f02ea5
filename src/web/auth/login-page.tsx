import { AuthCard } from './auth-card';

function LoginPage() {
  return (
    <AuthCard title="Sign In">
      <p>Sign in to continue your application.</p>
    </AuthCard>
  );
}

export { LoginPage as Component };
