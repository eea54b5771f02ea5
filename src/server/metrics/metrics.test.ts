import { describe, expect, it } from 'vitest';
import type { JobQueue } from '../jobs/job-queue';
import { createMetrics, observeJobQueue } from './metrics';

const quietLog = { warn: () => {} } as unknown as Parameters<typeof observeJobQueue>[2];

describe('metrics', () => {
  it('belong to one registry each: two sets in one process neither share nor clash', async () => {
    const first = createMetrics();
    const second = createMetrics();
    first.mailSent.inc();
    expect(await first.registry.getSingleMetricAsString('portal_mail_sent_total')).toContain(
      'portal_mail_sent_total 1',
    );
    expect(await second.registry.getSingleMetricAsString('portal_mail_sent_total')).toContain(
      'portal_mail_sent_total 0',
    );
  });

  it('leave the queue gauge empty when the depths cannot be read, and still answer', async () => {
    const metrics = createMetrics();
    let broken = false;
    const queue = {
      depths: async () => {
        if (broken) throw new Error('database gone');
        return { 'documents.convert': { waiting: 3, running: 1 } };
      },
    } as unknown as JobQueue;
    const warnings: unknown[] = [];
    observeJobQueue(metrics, queue, {
      ...quietLog,
      warn: (...args: unknown[]) => warnings.push(args),
    } as typeof quietLog);
    expect(await metrics.registry.metrics()).toContain(
      'portal_job_queue_jobs{job="documents.convert",state="waiting"} 3',
    );
    broken = true;
    const body = await metrics.registry.metrics();
    expect(body).not.toContain('portal_job_queue_jobs{');
    expect(body).toContain('portal_mail_sent_total 0');
    expect(warnings).toHaveLength(1);
  });
});
