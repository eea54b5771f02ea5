import { Outlet } from 'react-router';
import { StaffInactivityMonitor } from './staff-inactivity-monitor';
import { StepUpProvider } from './step-up';

/** The pages of a signed-in member: step-up on demand, and the idle time-out. */
export function SignedInLayout() {
  return (
    <StepUpProvider>
      <Outlet />
      <StaffInactivityMonitor />
    </StepUpProvider>
  );
}
