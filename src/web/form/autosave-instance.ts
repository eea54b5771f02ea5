import type { QueryClient } from '@tanstack/react-query';
import { putJson } from '../data/http-client';
import { onBeforeInactivityLogout } from '../session/before-logout';
import { type Autosave, createAutosave } from './autosave';
import { setWebStatus } from './client-snapshot';
import { answerStore, onPageChange } from './form-session';
import { trackedCall } from './tracked-call';

let instance: Autosave | null = null;

/**
 * The one autosave of the open application, started with the form pages: saves on page change,
 * before any log-out (the inactivity one included), and when the tab is hidden (a phone
 * switching apps, a closing tab), besides the debounce while typing.
 */
export function getAutosave(queryClient: QueryClient): Autosave {
  if (instance) return instance;
  const autosave = createAutosave({
    store: answerStore,
    send: (patch) => trackedCall(queryClient, () => putJson('/api/answer', patch)),
    // 409: submitted meanwhile (another tab); the shell then moves to /completion.
    onStopped: () => setWebStatus('submitted'),
  });
  onBeforeInactivityLogout(async () => {
    await autosave.flush();
  });
  onPageChange(() => {
    void autosave.flush();
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') void autosave.flush();
  });
  instance = autosave;
  return autosave;
}
