import type { JobLog } from './job-runner';

export interface Periodic {
  /** Stops the timer and waits for a run under way. */
  stop(): Promise<void>;
}

/**
 * Runs `work` now and then every `intervalMs`, one run at a time, until stopped: the sweeps a
 * server that runs jobs keeps (checklist counts, decision releases, reminders, expired exports).
 * Each run's work is written to be claimed once across servers, so every server may run it. A
 * failed run is logged and the next goes ahead; the timer never keeps the process alive.
 */
export function startPeriodic(
  log: JobLog,
  failure: string,
  intervalMs: number,
  work: () => Promise<void>,
  /** False when the caller has just done the work itself. */
  runNow = true,
): Periodic {
  let current: Promise<void> = Promise.resolve();
  const run = () => {
    current = current.then(async () => {
      try {
        await work();
      } catch (error) {
        log.error({ err: error }, failure);
      }
    });
  };
  if (runNow) run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await current;
    },
  };
}
