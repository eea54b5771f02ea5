import { queryOptions } from '@tanstack/react-query';
import {
  COURSEWORK_UPDATES_URL,
  COURSEWORK_URL,
  type CourseworkOverview,
  type CourseworkUpdateBody,
} from '../../shared/coursework/coursework-update-api';
import { getJson, postJson } from './http-client';

/** GET /api/coursework: the applicant's coursework after submit, its totals and its updates. */
export const courseworkQueryOptions = queryOptions<CourseworkOverview>({
  queryKey: ['coursework'],
  queryFn: ({ signal }) => getJson<CourseworkOverview>(COURSEWORK_URL, signal),
});

/** POST /api/coursework-updates: one grid as it stands after the update; answers the overview. */
export function sendCourseworkUpdate(body: CourseworkUpdateBody): Promise<CourseworkOverview> {
  return postJson<CourseworkOverview>(COURSEWORK_UPDATES_URL, body);
}
