import { type SQL, sql } from 'drizzle-orm';
import type { ApplicationListRequest } from '../../shared/staff/application-list-api';
import { type AppDatabase, rowsOf } from '../db/database';
import { applications } from '../db/schema';
import { listSelection } from './applications-list-store';

/*
 * The rows of a list's selection (application-selection.ts parses it): the one place exports,
 * decisions for a list and the bulk actions to come ask which applications a list holds.
 */

/** The list's condition and order, on `applications` alone; null when nothing can match. */
export async function selectionCondition(
  db: AppDatabase,
  request: ApplicationListRequest,
): Promise<{ where: SQL | undefined; order: SQL } | null> {
  return listSelection(db, request);
}

/**
 * The ids of every application the list would show for the request, in the list's order, up
 * to `limit`. Ids only: a selection of many thousands holds a few hundred kilobytes here and
 * the rows themselves are read in batches.
 */
export async function selectedApplicationIds(
  db: AppDatabase,
  request: ApplicationListRequest,
  limit?: number,
): Promise<string[]> {
  const selection = await listSelection(db, request);
  if (!selection) return [];
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`select ${applications.accountId} as id from ${applications}
      ${selection.where ? sql`where ${selection.where}` : sql``}
      order by ${selection.order}
      ${limit === undefined ? sql`` : sql`limit ${limit}`}`),
  );
  return rows.map((row) => row.id);
}
