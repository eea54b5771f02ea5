import type { FastifyInstance } from 'fastify';
import { accounts, applications, webStatuses } from '../db/schema';
import { testDatabaseOf } from './test-app';

export interface ExportApplicant {
  answers?: Record<string, string>;
  status?: 'started' | 'validating' | 'submitted';
  submittedAt?: string;
}

/** RFC 4180 records: quoted fields may hold commas, quotes, CR and LF. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += char;
  }
  if (field !== '' || record.length > 0) records.push([...record, field]);
  return records;
}

/** Inserts applications straight into the database, each marked with the term `tag`. */
export async function insertApplications(
  app: FastifyInstance,
  tag: string,
  applicants: ExportApplicant[],
): Promise<string[]> {
  const db = testDatabaseOf(app);
  const ids: string[] = [];
  for (const [index, applicant] of applicants.entries()) {
    const [account] = await db
      .insert(accounts)
      .values({ email: `${tag}-${index}@example.edu` })
      .returning({ id: accounts.id });
    const id = account?.id as string;
    ids.push(id);
    await db.insert(applications).values({
      accountId: id,
      answers: { entry_term: tag, ...applicant.answers },
      submittedAt: applicant.submittedAt ? new Date(applicant.submittedAt) : null,
      updatedAt: new Date(`2026-01-0${1 + (index % 9)}T10:00:00Z`),
    });
    const reached = {
      started: ['started'],
      validating: ['started', 'validating'],
      submitted: ['started', 'validating', 'submitted'],
    }[applicant.status ?? 'started'];
    for (const webStatus of reached)
      await db.insert(webStatuses).values({ accountId: id, webStatus });
  }
  return ids;
}
