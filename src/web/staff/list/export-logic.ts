import type { ExportJob } from '../../../shared/staff/application-api';
import type { ExportColumn } from './list-calls';

/** How often a running ZIP export is asked how far it has come. */
export const POLL_MS = 1500;

export const JOB_STATUS_LABELS: Record<ExportJob['status'], string> = {
  queued: 'Waiting to start',
  running: 'Making the PDFs',
  completed: 'Ready',
  failed: 'Failed',
};

export function finished(job: ExportJob | undefined): boolean {
  return job?.status === 'completed' || job?.status === 'failed';
}

export function expired(job: ExportJob, now: number): boolean {
  return job.expires_at !== null && new Date(job.expires_at).getTime() <= now;
}

export function groupsOf(columns: readonly ExportColumn[]): [string, ExportColumn[]][] {
  const groups = new Map<string, ExportColumn[]>();
  for (const column of columns) {
    groups.set(column.group, [...(groups.get(column.group) ?? []), column]);
  }
  return [...groups.entries()];
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
