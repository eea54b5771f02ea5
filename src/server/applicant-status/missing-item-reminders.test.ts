import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationModel } from '../../shared/application/application-model';
import type { TenantConfig } from '../../shared/tenant/tenant-config';
import { createChecklistService } from '../checklist/checklist-service';
import { loadTenantConfig } from '../config/tenant';
import type { DatabaseHandle } from '../db/database';
import { accounts, applicationReceipts, applications } from '../db/schema';
import type { Mailer, MailMessage } from '../mail/mailer';
import { sampleTenantFile } from '../test/test-app';
import { createTestDatabase, databaseKinds } from '../test/test-database';
import { createApplicantStatusService } from './applicant-status';

const DAY = 86_400_000;
const NOW = new Date('2026-10-20T12:00:00Z');

function collectingMailer(): Mailer & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return {
    sent,
    send(message) {
      sent.push(message);
    },
    async drain() {},
  };
}

describe.each(databaseKinds)('missing-item reminders on %s', (kind) => {
  let database: DatabaseHandle;
  let tenant: TenantConfig;
  let counter = 0;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    tenant = { ...(await loadTenantConfig(sampleTenantFile)), missing_item_reminder_days: 7 };
  });
  afterAll(async () => {
    await database.close();
  });

  const service = (mailer: Mailer) =>
    createApplicantStatusService({
      db: database.db,
      model: applicationModel,
      tenant,
      mailer,
      publicUrl: 'https://apply.example.edu/',
    });

  /** A submitted application with its receipt, submitted `daysAgo` before NOW. */
  async function submitted(daysAgo: number, answers: Record<string, string> = {}) {
    const email = `remind${++counter}.${kind}@example.edu`;
    const [account] = await database.db
      .insert(accounts)
      .values({ email })
      .returning({ id: accounts.id });
    const accountId = account?.id as string;
    const submittedAt = new Date(NOW.getTime() - daysAgo * DAY);
    await database.db.insert(applications).values({ accountId, answers, submittedAt });
    await database.db.insert(applicationReceipts).values({
      accountId,
      number: `NSU-FA26-${String(counter).padStart(6, '0')}-${kind}`,
      cycle: 'FA26',
      sequence: counter,
      submittedAt,
      fingerprint: 'f'.repeat(64),
    });
    return { accountId, email };
  }

  const reminderSentAt = async (accountId: string) =>
    (
      await database.db
        .select({ at: applicationReceipts.reminderSentAt })
        .from(applicationReceipts)
        .where(eq(applicationReceipts.accountId, accountId))
    )[0]?.at ?? null;

  it('reminds once, after the configured days, of what only the applicant can provide', async () => {
    const due = await submitted(8);
    const recent = await submitted(2);
    const mailer = collectingMailer();

    expect(await service(mailer).sendDueReminders(NOW)).toBeGreaterThanOrEqual(1);
    const mine = mailer.sent.filter((mail) => mail.to === due.email);
    expect(mine).toHaveLength(1);
    const [mail] = mine;
    expect(mail?.subject).toBe('Your Northfield State University application is missing items');
    expect(mail?.text).toContain('- Unofficial high school transcript: Upload it here');
    expect(mail?.text).toContain(
      '- Application fee: Pay the application fee at https://pay.northfield.example.edu/application-fee.',
    );
    expect(mail?.text).toContain('https://apply.example.edu/completion');
    expect(mail?.html).toContain('href="https://apply.example.edu/completion"');
    expect(mailer.sent.some((sent) => sent.to === recent.email)).toBe(false);
    expect(await reminderSentAt(due.accountId)).toEqual(NOW);
    expect(await reminderSentAt(recent.accountId)).toBeNull();

    // Never twice; the recent one once its days have passed.
    const later = collectingMailer();
    await service(later).sendDueReminders(new Date(NOW.getTime() + 6 * DAY));
    expect(later.sent.filter((sent) => sent.to === due.email)).toHaveLength(0);
    expect(later.sent.filter((sent) => sent.to === recent.email)).toHaveLength(1);
  });

  it('sends nothing while only the college or the office must act', async () => {
    const { accountId, email } = await submitted(10);
    const checklist = createChecklistService({ db: database.db, model: applicationModel, tenant });
    const reader = { id: accountId, label: 'Reader' };
    await checklist.mark(accountId, 'fee', 'received', reader);
    await checklist.mark(accountId, 'document:hs_transcript', 'waived', reader);
    const mailer = collectingMailer();
    await service(mailer).sendDueReminders(NOW);
    expect(mailer.sent.filter((mail) => mail.to === email)).toHaveLength(0);
    expect(await reminderSentAt(accountId)).toBeNull();
  });

  it('sends once when several servers sweep at the same time', async () => {
    const { email } = await submitted(9);
    const mailers = [collectingMailer(), collectingMailer(), collectingMailer()];
    await Promise.all(mailers.map((mailer) => service(mailer).sendDueReminders(NOW)));
    const sent = mailers.flatMap((mailer) => mailer.sent).filter((mail) => mail.to === email);
    expect(sent).toHaveLength(1);
  });
});
