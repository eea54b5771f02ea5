import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type BeforeLogoutHooks, createBeforeLogoutHooks } from './before-logout';

const unregister: Array<() => void> = [];
let hooks: BeforeLogoutHooks;

beforeEach(() => {
  hooks = createBeforeLogoutHooks();
});

afterEach(() => {
  for (const off of unregister.splice(0)) off();
  vi.useRealTimers();
});

describe('before-logout hooks', () => {
  it('runs every registered hook with the context and waits for them', async () => {
    const calls: string[] = [];
    unregister.push(
      hooks.add(async ({ reason }) => {
        await Promise.resolve();
        calls.push(`a:${reason}`);
      }),
      hooks.add(({ reason }) => {
        calls.push(`b:${reason}`);
      }),
    );
    await hooks.run({ reason: 'inactivity', idleMs: 900_000 });
    expect(calls.sort()).toEqual(['a:inactivity', 'b:inactivity']);
  });

  it('stops calling a hook once it is unregistered', async () => {
    const hook = vi.fn();
    const off = hooks.add(hook);
    off();
    await hooks.run({ reason: 'user', idleMs: 0 });
    expect(hook).not.toHaveBeenCalled();
  });

  it('does not let a failing hook stop the logout', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const ok = vi.fn();
    unregister.push(
      hooks.add(() => {
        throw new Error('save failed');
      }),
      hooks.add(ok),
    );
    await expect(hooks.run({ reason: 'user', idleMs: 0 })).resolves.toBeUndefined();
    expect(ok).toHaveBeenCalled();
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });

  it('gives up waiting after the time limit', async () => {
    vi.useFakeTimers();
    unregister.push(hooks.add(() => new Promise<void>(() => {})));
    const run = hooks.run({ reason: 'inactivity', idleMs: 900_000 }, 5000);
    await vi.advanceTimersByTimeAsync(5000);
    await expect(run).resolves.toBeUndefined();
  });
});
