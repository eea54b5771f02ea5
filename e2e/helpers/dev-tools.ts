/** A path of the server's development tools (outbox, test link calls) with the run's key. */
export function devToolsPath(pathname: string): string {
  const key = process.env.DEV_TOOLS_KEY;
  if (!key) throw new Error('DEV_TOOLS_KEY is set by playwright.config.ts');
  return `${pathname}${pathname.includes('?') ? '&' : '?'}key=${encodeURIComponent(key)}`;
}
