import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { roleAllows } from '../../shared/staff/permissions';
import {
  type AuditPageResponse,
  type AuditQuery,
  auditQuerySchema,
  STAFF_API,
} from '../../shared/staff/staff-api';
import { type AuditFilters, type AuditStore, auditEventView } from '../audit/audit-store';
import { AUDIT_ACTIONS, type AuditAction } from '../audit/audit-trail';
import { CSV_CONTENT_TYPE, csvStream } from '../http/csv-writer';
import { HttpError } from '../http/http-error';
import type { ZodTypeProvider } from '../http/zod-validation';
import { STAFF_FORBIDDEN_MESSAGE, type StaffSessions, staffOf } from '../staff/staff-sessions';

export const AUDIT_ACTION_INVALID_MESSAGE = 'Choose an action from the list.';
export const AUDIT_DATES_INVALID_MESSAGE = 'The first day must not be after the last day.';
const DEFAULT_PAGE_SIZE = 50;

/** The columns of the exported trail, in order. */
export const AUDIT_CSV_HEADER = [
  'seq',
  'at',
  'actor_type',
  'actor_id',
  'actor_label',
  'action',
  'application_id',
  'detail',
  'ip',
  'prev_hash',
  'hash',
] as const;

function isAuditAction(value: string): value is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(value);
}

/** The filters of a query, or a 400 naming the one that cannot be used. */
function filtersOf(query: AuditQuery): AuditFilters {
  const action = query.action || undefined;
  if (action !== undefined && !isAuditAction(action)) {
    throw new HttpError(400, AUDIT_ACTION_INVALID_MESSAGE, {
      action: [AUDIT_ACTION_INVALID_MESSAGE],
    });
  }
  if (query.from && query.to && query.from > query.to) {
    throw new HttpError(400, AUDIT_DATES_INVALID_MESSAGE, { to: [AUDIT_DATES_INVALID_MESSAGE] });
  }
  return {
    actor: query.actor || undefined,
    application: query.application,
    action,
    from: query.from,
    to: query.to,
  };
}

/** The filters that were set, for the record of an export. */
function givenFilters(filters: AuditFilters): Partial<AuditFilters> {
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined));
}

export interface AuditRoutesOptions {
  sessions: StaffSessions;
  store: AuditStore;
}

/**
 * The audit trail in the console: filtered pages, newest first, and the whole filtered trail as a
 * CSV download. Reading needs 'audit.read'; the download is an export as well, so it also needs
 * 'exports.run' (with its fresh second factor), and is itself recorded.
 */
export const auditRoutes: FastifyPluginAsync<AuditRoutesOptions> = async (parent, options) => {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { sessions, store } = options;

  async function requireAuditRead(request: FastifyRequest): Promise<void> {
    if (!roleAllows(staffOf(request).role, 'audit.read')) {
      throw new HttpError(403, STAFF_FORBIDDEN_MESSAGE);
    }
  }

  app.get(
    `${STAFF_API}/audit/actions`,
    { onRequest: sessions.guard('audit.read') },
    async (): Promise<readonly string[]> => AUDIT_ACTIONS,
  );

  app.get(
    `${STAFF_API}/audit`,
    { onRequest: sessions.guard('audit.read'), schema: { querystring: auditQuerySchema } },
    async (request): Promise<AuditPageResponse> => {
      const filters = filtersOf(request.query);
      const limit = request.query.limit ?? DEFAULT_PAGE_SIZE;
      const rows = await store.page(filters, { limit: limit + 1, before: request.query.before });
      const events = rows.slice(0, limit).map(auditEventView);
      // Names are applicant data: only for a member who may read applications anyway. Like the
      // rest of this page, reading them is not itself an entry (docs/decisions/047).
      const names = roleAllows(staffOf(request).role, 'applications.read')
        ? await store.applicantNames(events.flatMap((event) => event.application_id ?? []))
        : new Map<string, string>();
      return {
        events: events.map((event) => ({
          ...event,
          application_name: event.application_id ? (names.get(event.application_id) ?? null) : null,
        })),
        next_before: rows.length > limit ? (events.at(-1)?.seq ?? null) : null,
      };
    },
  );

  app.get(
    `${STAFF_API}/audit.csv`,
    {
      onRequest: [sessions.guard('exports.run'), requireAuditRead],
      schema: { querystring: auditQuerySchema },
    },
    async (request, reply) => {
      const filters = filtersOf(request.query);
      // The entries there are now: the export's own record, and any made while it streams, stay out.
      const upTo = (await store.newest())?.seq ?? 0;
      const rows = await store.count(filters, upTo);
      // Recorded before anything leaves: an export that fails half-way is still on the record.
      await request.audit.record({
        action: 'audit.export',
        detail: { filters: givenFilters(filters), rows },
      });
      async function* records() {
        for await (const row of store.all(filters, upTo)) {
          yield [
            row.seq,
            row.at,
            row.actorType,
            row.actorId,
            row.actorLabel,
            row.action,
            row.applicationId,
            row.detail,
            row.ip,
            row.prevHash,
            row.hash,
          ];
        }
      }
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', CSV_CONTENT_TYPE)
        .header('content-disposition', `attachment; filename="audit-${day}.csv"`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-store')
        .send(csvStream(AUDIT_CSV_HEADER, records()));
    },
  );
};
