export interface DebounceOptions {
  /** Runs this long after the last call... */
  wait: number;
  /** ...but never later than this after the first call still waiting. */
  maxWait?: number;
}

export interface Debounced<Args extends unknown[]> {
  (...args: Args): void;
  /** Drops the waiting call. */
  cancel(): void;
  /** Runs the waiting call now, if there is one. */
  flush(): void;
}

/**
 * Runs `run` with the arguments of the last call once calls stop for `wait` ms, or `maxWait` ms
 * after the first waiting call while they keep coming (spec 000 section 7: lookups wait 200 ms,
 * at most 500 ms, so a fast typist still sees suggestions).
 */
export function debounce<Args extends unknown[]>(
  run: (...args: Args) => void,
  { wait, maxWait }: DebounceOptions,
): Debounced<Args> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let waitingSince = 0;
  let lastArgs: Args | null = null;

  const fire = () => {
    timer = null;
    const args = lastArgs;
    lastArgs = null;
    if (args) run(...args);
  };

  const debounced = (...args: Args) => {
    const now = Date.now();
    if (!lastArgs) waitingSince = now;
    lastArgs = args;
    if (timer !== null) clearTimeout(timer);
    const untilMax = maxWait === undefined ? wait : maxWait - (now - waitingSince);
    timer = setTimeout(fire, Math.max(0, Math.min(wait, untilMax)));
  };
  debounced.cancel = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    lastArgs = null;
  };
  debounced.flush = () => {
    if (timer !== null) clearTimeout(timer);
    fire();
  };
  return debounced;
}

export interface DebouncedLoader<T> {
  (input: string): Promise<T>;
  cancel(): void;
}

/**
 * A debounced loader for a list that follows typing: every call gets a promise, and when the
 * debounced load runs (with the latest input) all the promises waiting settle with its result.
 * Callers that asked for an older input can compare and ignore it, as react-select does.
 */
export function debouncedLoader<T>(
  load: (input: string) => Promise<T>,
  options: DebounceOptions,
): DebouncedLoader<T> {
  let waiting: Array<{ resolve: (value: T) => void; reject: (reason: unknown) => void }> = [];
  const run = debounce((input: string) => {
    const callers = waiting;
    waiting = [];
    load(input).then(
      (value) => {
        for (const caller of callers) caller.resolve(value);
      },
      (reason: unknown) => {
        for (const caller of callers) caller.reject(reason);
      },
    );
  }, options);
  const loader = (input: string) =>
    new Promise<T>((resolve, reject) => {
      waiting.push({ resolve, reject });
      run(input);
    });
  loader.cancel = () => {
    run.cancel();
    waiting = [];
  };
  return loader;
}
