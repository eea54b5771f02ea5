import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import {
  APPLICATION_API_MESSAGES,
  SAVED_VIEWS_MAX,
  type SavedView,
  savedViewSchema,
} from '../../shared/staff/application-api';
import { applicationListQuery, listQueryParams } from '../../shared/staff/application-list-api';
import { STAFF_API } from '../../shared/staff/staff-api';
import { NOT_FOUND_MESSAGE } from '../http/errors-plugin';
import { HttpError } from '../http/http-error';
import type { ZodTypeProvider } from '../http/zod-validation';
import { type StaffSessions, staffOf } from '../staff/staff-sessions';
import type { ApplicationViewStore } from './application-view-store';

const viewParams = z.strictObject({ id: z.uuid(NOT_FOUND_MESSAGE) });

/** A view is where the list is, not which page of it: the page is left out. */
function viewQueryOf(query: string): string {
  const params = new URLSearchParams(query.replace(/^\?/, ''));
  params.delete('page');
  return params.toString();
}

export interface SavedViewRoutesOptions {
  sessions: StaffSessions;
  store: ApplicationViewStore;
}

/**
 * A member's named views of the application list: the list's query string under a name. A view
 * is checked with the list's own schema when it is saved, so applying one never fails on its
 * parameters. Views belong to the member who saved them; another member's id is not found.
 */
export const savedViewRoutes: FastifyPluginAsync<SavedViewRoutesOptions> = async (
  parent,
  options,
) => {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { store } = options;
  const read = options.sessions.guard('applications.read');
  const viewOf = (row: {
    id: string;
    name: string;
    query: string;
    createdAt: Date;
  }): SavedView => ({
    id: row.id,
    name: row.name,
    query: row.query,
    created_at: row.createdAt.toISOString(),
  });

  app.get(
    `${STAFF_API}/saved-views`,
    { onRequest: read },
    async (request): Promise<SavedView[]> =>
      (await store.savedViews(staffOf(request).id)).map(viewOf),
  );

  app.post(
    `${STAFF_API}/saved-views`,
    { onRequest: read, schema: { body: savedViewSchema } },
    async (request, reply): Promise<SavedView> => {
      const staff = staffOf(request);
      const query = viewQueryOf(request.body.query);
      const parsed = applicationListQuery.safeParse(listQueryParams(query));
      if (!parsed.success || parsed.data.email !== undefined) {
        const issue = parsed.success ? undefined : parsed.error.issues[0];
        throw new HttpError(400, issue?.message ?? APPLICATION_API_MESSAGES.viewQuery, {
          query: [issue?.message ?? APPLICATION_API_MESSAGES.viewQuery],
        });
      }
      if ((await store.countSavedViews(staff.id)) >= SAVED_VIEWS_MAX) {
        throw new HttpError(400, APPLICATION_API_MESSAGES.viewsFull);
      }
      const saved = await store.addSavedView(staff.id, { name: request.body.name, query });
      if (!saved) {
        throw new HttpError(409, APPLICATION_API_MESSAGES.viewNameTaken, {
          name: [APPLICATION_API_MESSAGES.viewNameTaken],
        });
      }
      reply.code(201);
      return viewOf(saved);
    },
  );

  app.delete(
    `${STAFF_API}/saved-views/:id`,
    { onRequest: read, schema: { params: viewParams } },
    async (request, reply) => {
      if (!(await store.deleteSavedView(staffOf(request).id, request.params.id))) {
        throw new HttpError(404, NOT_FOUND_MESSAGE);
      }
      return reply.code(204).send();
    },
  );
};
