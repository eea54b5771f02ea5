import { describe, expect, it } from 'vitest';
import type { ExportJob } from '../../../shared/staff/application-api';
import { expired, finished, formatBytes, groupsOf, JOB_STATUS_LABELS } from './export-logic';

const job = (more: Partial<ExportJob>): ExportJob => ({ ...({} as ExportJob), ...more });

describe('ZIP export jobs', () => {
  it('are finished once completed or failed, and polled until then', () => {
    expect(finished(undefined)).toBe(false);
    expect(finished(job({ status: 'queued' }))).toBe(false);
    expect(finished(job({ status: 'running' }))).toBe(false);
    expect(finished(job({ status: 'completed' }))).toBe(true);
    expect(finished(job({ status: 'failed' }))).toBe(true);
  });

  it('expire at their time, and never without one', () => {
    const at = Date.parse('2026-09-01T12:00:00Z');
    expect(expired(job({ expires_at: '2026-09-01T12:00:00Z' }), at - 1)).toBe(false);
    expect(expired(job({ expires_at: '2026-09-01T12:00:00Z' }), at)).toBe(true);
    expect(expired(job({ expires_at: null }), at)).toBe(false);
  });

  it('name every status', () => {
    expect(JOB_STATUS_LABELS.completed).toBe('Ready');
    expect(Object.keys(JOB_STATUS_LABELS).sort()).toEqual([
      'completed',
      'failed',
      'queued',
      'running',
    ]);
  });

  it('say their size in KB, at least one, or in MB', () => {
    expect(formatBytes(10)).toBe('1 KB');
    expect(formatBytes(300 * 1024)).toBe('300 KB');
    expect(formatBytes(1024 * 1024)).toBe('1.0 MB');
    expect(formatBytes(5.25 * 1024 * 1024)).toBe('5.3 MB');
  });
});

describe('the CSV column chooser', () => {
  it('groups the columns under their headings, in the order they first come', () => {
    const column = (key: string, group: string) => ({ key, label: key, group });
    expect(
      groupsOf([
        column('id', 'Application'),
        column('q1', 'Answers'),
        column('email', 'Application'),
      ]),
    ).toEqual([
      ['Application', [column('id', 'Application'), column('email', 'Application')]],
      ['Answers', [column('q1', 'Answers')]],
    ]);
    expect(groupsOf([])).toEqual([]);
  });
});
