/**
 * A module (or anything slow to make) loaded on first use and shared after: `lazy(() =>
 * import('pkg'))` keeps a heavy or optional dependency out of the server's start, and the build
 * (esbuild, dependencies external) keeps such an import lazy. A failed load is tried again on the
 * next call.
 */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
