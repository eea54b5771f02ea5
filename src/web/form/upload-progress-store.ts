import type { DocumentStatus } from '../../shared/api/documents';
import { createStore, type Store } from '../state/create-store';

/** The statuses that keep a conversion polled (spec 000 section 4). */
export type PendingStatus = Extract<DocumentStatus, 'UNPROCESSED' | 'IN_PROGRESS'>;

export function isPendingStatus(status: DocumentStatus): status is PendingStatus {
  return status === 'UNPROCESSED' || status === 'IN_PROGRESS';
}

/** Where one file question's upload stands in this browser. */
export type UploadPhase =
  | { kind: 'idle' }
  /** Asking the server whether a conversion started earlier (another visit) is still running. */
  | { kind: 'checking' }
  | { kind: 'uploading'; fileName: string; loaded: number; total: number }
  | { kind: 'converting'; fileName: string | null; status: PendingStatus }
  | { kind: 'deleting' };

export interface UploadEntry {
  phase: UploadPhase;
  /** The last thing that went wrong, as a sentence for the applicant; cleared by the next try. */
  error: string | null;
  /** Said once to screen readers when an upload ends well, e.g. 'essay.docx is uploaded.' */
  done: string | null;
}

const IDLE: UploadEntry = { phase: { kind: 'idle' }, error: null, done: null };

type Listener = () => void;

/** The 'File Upload in Progress' notice (spec 001 section 4) and the file questions offering to show it. */
export interface UploadNotice {
  blocked: boolean;
  /** The first of them shows it, so there is exactly one however many questions the page holds. */
  hosts: readonly string[];
}

/**
 * The uploads under way, per answer key, outside React: the file question renders from it, and
 * the tab switch reads it to refuse hiding a question whose file is still on its way. Entries
 * are replaced, never mutated, so each one can be a useSyncExternalStore snapshot.
 */
export class UploadProgressStore {
  private entries = new Map<string, UploadEntry>();
  private readonly listeners = new Map<string, Set<Listener>>();
  readonly notice: Store<UploadNotice> = createStore<UploadNotice>({ blocked: false, hosts: [] });

  get(key: string): UploadEntry {
    return this.entries.get(key) ?? IDLE;
  }

  update(key: string, change: Partial<UploadEntry>): void {
    const next = { ...this.get(key), ...change };
    if (next.phase.kind === 'idle' && next.error === null && next.done === null) {
      this.entries.delete(key);
    } else {
      this.entries.set(key, next);
    }
    this.emit(key);
  }

  /** Whether a file is on its way for this key: a tab hiding it must wait. */
  isBusy(key: string): boolean {
    return this.get(key).phase.kind !== 'idle';
  }

  /** Forgets everything, e.g. when someone else signs in. */
  reset(): void {
    const keys = [...this.entries.keys()];
    this.entries = new Map();
    for (const key of keys) this.emit(key);
    this.setBlocked(false);
  }

  subscribe(key: string, listener: Listener): () => void {
    let set = this.listeners.get(key);
    if (!set) {
      set = new Set();
      this.listeners.set(key, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(key);
    };
  }

  /** The 'File Upload in Progress' notice (spec 001 section 4). */
  isBlocked(): boolean {
    return this.notice.get().blocked;
  }

  setBlocked(blocked: boolean): void {
    this.notice.set((notice) => (notice.blocked === blocked ? notice : { ...notice, blocked }));
  }

  /**
   * File questions on screen offer to show the notice; the first of them does, so there is
   * exactly one however many questions the page holds. Returns the function that withdraws.
   */
  offerNoticeHost(key: string): () => void {
    this.notice.set((notice) => ({ ...notice, hosts: [...notice.hosts, key] }));
    return () => {
      this.notice.set((notice) => {
        const at = notice.hosts.indexOf(key);
        return at < 0 ? notice : { ...notice, hosts: notice.hosts.toSpliced(at, 1) };
      });
    };
  }

  noticeHost(): string | null {
    return this.notice.get().hosts[0] ?? null;
  }

  subscribeNotice(listener: Listener): () => void {
    return this.notice.subscribe(listener);
  }

  private emit(key: string): void {
    for (const listener of [...(this.listeners.get(key) ?? [])]) listener();
  }
}

/** Whole percent uploaded, or null while the size is unknown. */
export function uploadPercent(phase: UploadPhase): number | null {
  if (phase.kind !== 'uploading' || phase.total <= 0) return null;
  return Math.min(100, Math.floor((phase.loaded / phase.total) * 100));
}

/** The sentence a screen reader hears for a phase; it changes per phase, not per progress event. */
export function phaseAnnouncement(phase: UploadPhase): string {
  switch (phase.kind) {
    case 'idle':
    case 'checking':
      // Every empty file question reads its status on arrival: nothing worth saying.
      return '';
    case 'uploading':
      return `Uploading ${phase.fileName}...`;
    case 'converting':
      return phase.fileName
        ? `Converting ${phase.fileName} to PDF...`
        : 'Converting your file to PDF...';
    case 'deleting':
      return 'Deleting your file...';
  }
}

/** A size as applicants read it: bytes, KB or MB with one decimal (1 KB = 1024 bytes). */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${trimZero(bytes / 1024)} KB`;
  return `${trimZero(bytes / (1024 * 1024))} MB`;
}

function trimZero(value: number): string {
  return value.toFixed(1).replace(/\.0$/, '');
}
