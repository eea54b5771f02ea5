// Timing helpers shared by the benchmarks: median and tail of repeated runs after warm-ups.

/** A case timed over `runs` runs. */
export interface TimedCase {
  case: string;
  runs: number;
  medianMs: number;
  p95Ms: number;
}

/** Nearest-rank percentile of sorted values; `fraction` is 0.5 for the median, 0.99 for p99. */
export function percentile(sorted: readonly number[], fraction: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

/** Runs `task` `warmUps` times untimed, then `runs` times timed one after another. */
export async function timeCase(
  name: string,
  runs: number,
  warmUps: number,
  task: () => unknown,
): Promise<TimedCase> {
  for (let i = 0; i < warmUps; i++) await task();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await task();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    case: name,
    runs,
    medianMs: round(percentile(times, 0.5)),
    p95Ms: round(percentile(times, 0.95)),
  };
}
