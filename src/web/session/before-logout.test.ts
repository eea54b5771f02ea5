import { afterEach, describe, expect, it, vi } from 'vitest';
import { onBeforeInactivityLogout, runBeforeLogoutHooks } from './before-logout';

const unregister: Array<() => void> = [];

afterEach(() => {
  for (const off of unregister.splice(0)) off();
  vi.useRealTimers();
});

describe('before-logout hooks', () => {
  it('runs every registered hook with the context and waits for them', async () => {
    const calls: string[] = [];
    unregister.push(
      onBeforeInactivityLogout(async ({ reason }) => {
        await Promise.resolve();
        calls.push(`a:${reason}`);
      }),
      onBeforeInactivityLogout(({ reason }) => {
        calls.push(`b:${reason}`);
      }),
    );
    await runBeforeLogoutHooks({ reason: 'inactivity', idleMs: 900_000 });
    expect(calls.sort()).toEqual(['a:inactivity', 'b:inactivity']);
  });

  it('stops calling a hook once it is unregistered', async () => {
    const hook = vi.fn();
    const off = onBeforeInactivityLogout(hook);
    off();
    await runBeforeLogoutHooks({ reason: 'user', idleMs: 0 });
    expect(hook).not.toHaveBeenCalled();
  });

  it('does not let a failing hook stop the logout', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const ok = vi.fn();
    unregister.push(
      onBeforeInactivityLogout(() => {
        throw new Error('save failed');
      }),
      onBeforeInactivityLogout(ok),
    );
    await expect(runBeforeLogoutHooks({ reason: 'user', idleMs: 0 })).resolves.toBeUndefined();
    expect(ok).toHaveBeenCalled();
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });

  it('gives up waiting after the time limit', async () => {
    vi.useFakeTimers();
    unregister.push(onBeforeInactivityLogout(() => new Promise<void>(() => {})));
    const run = runBeforeLogoutHooks({ reason: 'inactivity', idleMs: 900_000 }, 5000);
    await vi.advanceTimersByTimeAsync(5000);
    await expect(run).resolves.toBeUndefined();
  });
});
