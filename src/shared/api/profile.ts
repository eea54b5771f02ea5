import type { Answers } from '../form/model';

/** Web status values in their order (spec 000 section 4). */
export const WEB_STATUSES = ['started', 'validating', 'submitted'] as const;
export type WebStatus = (typeof WEB_STATUSES)[number];

/** GET /api/profile (spec 000 section 3). */
export interface ProfileResponse {
  answer: Answers;
  document_answer: Record<string, { file_name: string; file_size: number }>;
  username: string;
  last_page: string | null;
  successful_login: Array<{ logged_in_at: string }>;
  web_status: Array<{ web_status: WebStatus }>;
}

/** The count of distinct known statuses gives the current one: 0 none, 1 started, 2 validating, 3 submitted. */
export function currentWebStatus(entries: ProfileResponse['web_status']): WebStatus | null {
  const known = new Set(
    entries.map((entry) => entry.web_status).filter((s) => WEB_STATUSES.includes(s)),
  );
  return known.size === 0 ? null : (WEB_STATUSES[known.size - 1] ?? null);
}
