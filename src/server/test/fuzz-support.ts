// Property-test support for the code that reads untrusted uploads: inputs made from seed files by
// the changes damaged and hostile files show (flipped bits, cut ends, spliced and repeated pieces,
// overwritten ranges) besides plain random bytes, and the time and memory one input may cost.
// Test support only.
import fc from 'fast-check';

/** Inputs per property: enough to reach every branch of a header reader, in seconds. */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 150);

/**
 * fast-check settings shared by the fuzz tests: every seed runs as it is first (a mutation of a
 * hostile file usually breaks a checksum and is refused early), then FUZZ_RUNS generated inputs;
 * no shrinking, which would repeat slow inputs.
 */
export function fuzzParameters(seeds: readonly Uint8Array[]) {
  return {
    numRuns: FUZZ_RUNS,
    endOnFailure: true,
    examples: seeds.map((seed): [Uint8Array] => [describedInput(seed)]),
  };
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Seeds as they are, mutated in the ways real damage and real attacks change files, or random. */
export function mutatedFrom(
  seeds: readonly Uint8Array[],
  maxRandomLength = 2048,
): fc.Arbitrary<Uint8Array> {
  const seed = fc.constantFrom(...seeds);
  const position = fc.nat();
  const flipped = fc
    .tuple(
      seed,
      fc.array(fc.tuple(position, fc.integer({ min: 0, max: 7 })), { minLength: 1, maxLength: 16 }),
    )
    .map(([bytes, flips]) => {
      const out = bytes.slice();
      for (const [at, bit] of flips) {
        const index = at % Math.max(1, out.length);
        if (out.length > 0) out[index] = (out[index] ?? 0) ^ (1 << bit);
      }
      return out;
    });
  const truncated = fc
    .tuple(seed, position)
    .map(([bytes, at]) => bytes.slice(0, at % (bytes.length + 1)));
  const spliced = fc
    .tuple(seed, seed, position, position)
    .map(([a, b, i, j]) =>
      concat(a.subarray(0, i % (a.length + 1)), b.subarray(j % (b.length + 1))),
    );
  const overwritten = fc
    .tuple(seed, position, fc.uint8Array({ minLength: 1, maxLength: 64 }))
    .map(([bytes, at, noise]) => {
      const out = bytes.slice();
      const start = at % (out.length + 1);
      out.set(noise.subarray(0, out.length - start), start);
      return out;
    });
  const repeated = fc
    .tuple(seed, position, fc.integer({ min: 1, max: 512 }), fc.integer({ min: 2, max: 64 }))
    .map(([bytes, at, length, times]) => {
      const start = at % (bytes.length + 1);
      const piece = bytes.subarray(start, start + length);
      return concat(
        bytes.subarray(0, start),
        ...Array.from({ length: times }, () => piece),
        bytes.subarray(start),
      );
    });
  return fc
    .oneof(
      seed,
      flipped,
      truncated,
      spliced,
      overwritten,
      repeated,
      fc.uint8Array({ maxLength: maxRandomLength }),
    )
    .map(describedInput);
}

/** The input, printed in a failure report by its length and first bytes rather than in full. */
function describedInput(bytes: Uint8Array): Uint8Array {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 120));
  return Object.assign(bytes, {
    [fc.toStringMethod]: () => `${bytes.length} bytes starting ${JSON.stringify(head)}`,
  });
}

export interface Cost {
  ms: number;
  /** Growth of the JavaScript heap and ArrayBuffers (Buffer, Uint8Array) during the run. */
  bytes: number;
}

const inUse = () => {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
};

/**
 * Runs `run` and reports what it cost. Memory is measured without a collection in between, so a
 * large buffer made and dropped during the run still counts.
 */
export async function costOf(run: () => unknown): Promise<Cost> {
  const before = inUse();
  const started = performance.now();
  await run();
  return { ms: performance.now() - started, bytes: Math.max(0, inUse() - before) };
}

/** Runs `run`, passing when it returns or throws one of `expected`, failing on anything else. */
export async function outcomeOf(
  run: () => unknown,
  expected: ReadonlyArray<abstract new (...args: never[]) => Error>,
): Promise<'returned' | 'refused'> {
  try {
    await run();
    return 'returned';
  } catch (error) {
    if (expected.some((type) => error instanceof type)) return 'refused';
    throw error;
  }
}

export const MB = 1024 * 1024;
