import { inArray, sql } from 'drizzle-orm';
import { type AppDatabase, rowsOf } from '../db/database';
import { courseworkUpdates } from '../db/schema';

/*
 * The coursework of an application as it stands now. The submitted answers never change; a
 * grid updated after submit (a term's grades in January) has rows in coursework_updates, and its
 * latest row is its current coursework. A grid never updated is its submitted answer.
 */

const u = courseworkUpdates;

/**
 * The latest update of each updated grid of `ids`, by application and then by answer key
 * (`college_2_coursework` → the grid's JSON): laid over an application's answers, they give its
 * current coursework. Applications without updates are not in the map.
 */
export async function currentCourseworkAnswers(
  db: AppDatabase,
  ids: readonly string[],
): Promise<Map<string, Record<string, string>>> {
  const current = new Map<string, Record<string, string>>();
  if (ids.length === 0) return current;
  // One row per grid, read from coursework_updates(account_id, created_at).
  const rows = rowsOf<{ account_id: string; answer_key: string; answer: string }>(
    await db.execute(sql`select distinct on (${u.accountId}, ${u.answerKey})
        ${u.accountId} as account_id, ${u.answerKey} as answer_key, ${u.answer} as answer
      from ${u}
      where ${inArray(u.accountId, [...ids])}
      order by ${u.accountId}, ${u.answerKey}, ${u.createdAt} desc, ${u.id} desc`),
  );
  for (const row of rows) {
    const answers = current.get(row.account_id) ?? {};
    answers[row.answer_key] = row.answer;
    current.set(row.account_id, answers);
  }
  return current;
}
