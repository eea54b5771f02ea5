import { describe, expect, it, vi } from 'vitest';
import {
  formatFileSize,
  isPendingStatus,
  phaseAnnouncement,
  UploadProgressStore,
  uploadPercent,
} from './upload-progress-store';

describe('UploadProgressStore', () => {
  it('starts idle, keeps a key busy until it is idle again, and notifies only that key', () => {
    const store = new UploadProgressStore();
    const essay = vi.fn();
    const transcript = vi.fn();
    store.subscribe('essay', essay);
    store.subscribe('transcript', transcript);

    expect(store.get('essay')).toEqual({ phase: { kind: 'idle' }, error: null, done: null });
    expect(store.isBusy('essay')).toBe(false);

    store.update('essay', {
      phase: { kind: 'uploading', fileName: 'a.png', loaded: 0, total: 10 },
    });
    expect(store.isBusy('essay')).toBe(true);
    const uploading = store.get('essay');
    expect(store.get('essay')).toBe(uploading);
    store.update('essay', {
      phase: { kind: 'converting', fileName: 'a.png', status: 'UNPROCESSED' },
    });
    expect(store.get('essay')).not.toBe(uploading);
    store.update('essay', {
      phase: { kind: 'idle' },
      done: 'a.png is uploaded and converted to PDF.',
    });
    expect(store.isBusy('essay')).toBe(false);
    expect(store.get('essay').done).toBe('a.png is uploaded and converted to PDF.');

    expect(essay).toHaveBeenCalledTimes(3);
    expect(transcript).not.toHaveBeenCalled();
  });

  it('keeps an error until it is cleared and forgets everything at a reset', () => {
    const store = new UploadProgressStore();
    const listener = vi.fn();
    store.subscribe('essay', listener);
    store.update('essay', { error: 'Your file is empty. Please upload a non-empty file.' });
    store.setBlocked(true);
    expect(store.isBusy('essay')).toBe(false);
    expect(store.get('essay').error).toBe('Your file is empty. Please upload a non-empty file.');

    store.reset();
    expect(store.get('essay').error).toBeNull();
    expect(store.isBlocked()).toBe(false);
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('stops notifying a listener that unsubscribed', () => {
    const store = new UploadProgressStore();
    const listener = vi.fn();
    const off = store.subscribe('essay', listener);
    off();
    store.update('essay', { phase: { kind: 'checking' } });
    expect(listener).not.toHaveBeenCalled();
  });

  it('lets the first file question on screen host the notice, and the next one when it leaves', () => {
    const store = new UploadProgressStore();
    const listener = vi.fn();
    store.subscribeNotice(listener);
    expect(store.noticeHost()).toBeNull();
    const withdrawEssay = store.offerNoticeHost('essay');
    const withdrawTranscript = store.offerNoticeHost('transcript');
    expect(store.noticeHost()).toBe('essay');
    withdrawEssay();
    expect(store.noticeHost()).toBe('transcript');
    withdrawTranscript();
    expect(store.noticeHost()).toBeNull();

    store.setBlocked(true);
    store.setBlocked(true);
    expect(store.isBlocked()).toBe(true);
    store.setBlocked(false);
    // Four host changes and two real changes of the notice.
    expect(listener).toHaveBeenCalledTimes(6);
  });
});

describe('upload wording', () => {
  it('gives whole percent while uploading and nothing otherwise', () => {
    expect(uploadPercent({ kind: 'uploading', fileName: 'a', loaded: 0, total: 200 })).toBe(0);
    expect(uploadPercent({ kind: 'uploading', fileName: 'a', loaded: 199, total: 200 })).toBe(99);
    expect(uploadPercent({ kind: 'uploading', fileName: 'a', loaded: 250, total: 200 })).toBe(100);
    expect(uploadPercent({ kind: 'uploading', fileName: 'a', loaded: 0, total: 0 })).toBeNull();
    expect(uploadPercent({ kind: 'converting', fileName: 'a', status: 'IN_PROGRESS' })).toBeNull();
  });

  it('announces each phase once, by name', () => {
    expect(phaseAnnouncement({ kind: 'idle' })).toBe('');
    expect(phaseAnnouncement({ kind: 'uploading', fileName: 'a.png', loaded: 5, total: 9 })).toBe(
      'Uploading a.png...',
    );
    expect(
      phaseAnnouncement({ kind: 'converting', fileName: 'a.png', status: 'UNPROCESSED' }),
    ).toBe('Converting a.png to PDF...');
    expect(phaseAnnouncement({ kind: 'converting', fileName: null, status: 'IN_PROGRESS' })).toBe(
      'Converting your file to PDF...',
    );
    expect(phaseAnnouncement({ kind: 'checking' })).toBe('');
    expect(phaseAnnouncement({ kind: 'deleting' })).toBe('Deleting your file...');
  });

  it('writes sizes as applicants read them', () => {
    expect(formatFileSize(0)).toBe('0 bytes');
    expect(formatFileSize(1)).toBe('1 byte');
    expect(formatFileSize(1023)).toBe('1023 bytes');
    expect(formatFileSize(1024)).toBe('1 KB');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(1024 * 1024)).toBe('1 MB');
    expect(formatFileSize(2.25 * 1024 * 1024)).toBe('2.3 MB');
  });

  it('polls only unprocessed and in-progress conversions', () => {
    expect(isPendingStatus('UNPROCESSED')).toBe(true);
    expect(isPendingStatus('IN_PROGRESS')).toBe(true);
    expect(isPendingStatus('COMPLETED')).toBe(false);
    expect(isPendingStatus('FAILED')).toBe(false);
    expect(isPendingStatus('NOT_ANSWERED')).toBe(false);
  });
});
