import { DEV_TOOLS_KEY_PARAMETER } from './dev-tools-access';

/** Query parameters that are secrets: they must never reach the log. */
const SECRET_PARAMETERS = [
  'token',
  'service_token',
  'id',
  'code',
  // The single sign-on callback's state is as good as the code until it is used.
  'state',
  DEV_TOOLS_KEY_PARAMETER,
];

export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const params = new URLSearchParams(url.slice(queryStart + 1));
  for (const name of SECRET_PARAMETERS) {
    if (params.has(name)) params.set(name, '[redacted]');
  }
  return `${url.slice(0, queryStart)}?${params.toString()}`;
}
