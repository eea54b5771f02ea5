import { describe, expect, it, vi } from 'vitest';
import {
  CONVERSION_ERROR_MESSAGE,
  type ConversionStatusResponse,
  type DocumentStatus,
} from '../../shared/api/documents';
import { CONVERSION_POLL_MS } from '../../shared/constants';
import {
  FILE_EMPTY_MESSAGE,
  FILE_NAME_TOO_LONG_MESSAGE,
  FILE_TOO_LARGE_MESSAGE,
  FILE_TYPE_MESSAGE,
} from '../../shared/documents/file-rules';
import type { Item } from '../../shared/form/model';
import type { UploadForm } from '../data/documents';
import { ServerError, UnauthorizedError } from '../data/http-client';
import {
  createDocumentUploads,
  type DocumentCalls,
  type DocumentEffects,
  fileKeysOfItems,
} from './document-uploads';
import { type UploadPhase, UploadProgressStore } from './upload-progress-store';

const KEY = 'personal_statement_doc';
const FORM: UploadForm = {
  url: '/public/upload',
  fields: { key: 'account/object', policy: 'p', signature: 's' },
};

const status = (
  value: DocumentStatus,
  message: string | null = null,
): ConversionStatusResponse => ({
  status: value,
  message,
  url: null,
});

function pngFile(name = 'essay.png', size = 2048): File {
  return new File([new Uint8Array(size)], name, { type: 'image/png' });
}

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}

function deferred(): Deferred {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/**
 * A controller over fakes: `statuses` are the replies of successive status reads (an Error
 * rejects that read), and every call is recorded in order.
 */
function setUp(
  statuses: Array<ConversionStatusResponse | Error> = [],
  overrides: Partial<DocumentCalls> = {},
) {
  const store = new UploadProgressStore();
  const log: string[] = [];
  const phases: UploadPhase['kind'][] = [];
  store.subscribe(KEY, () => {
    const kind = store.get(KEY).phase.kind;
    if (phases.at(-1) !== kind) phases.push(kind);
  });
  const replies = [...statuses];
  const calls: DocumentCalls = {
    saveAnswers: vi.fn(async () => {
      log.push('save');
    }),
    requestUploadForm: vi.fn(async (key: string) => {
      log.push(`presign ${key}`);
      return FORM;
    }),
    postFile: vi.fn(async (form, _file, fileName, onProgress) => {
      log.push(`post ${form.url} ${fileName}`);
      onProgress(1024, 2048);
      onProgress(2048, 2048);
    }),
    startConversion: vi.fn(async (key: string, body) => {
      log.push(`convert ${key} ${body.file_key} ${body.file_name}`);
      return status('UNPROCESSED');
    }),
    conversionStatus: vi.fn(async (key: string) => {
      log.push(`status ${key}`);
      const next = replies.shift() ?? status('NOT_ANSWERED');
      if (next instanceof Error) throw next;
      return next;
    }),
    deleteDocument: vi.fn(async (key: string) => {
      log.push(`delete ${key}`);
    }),
    ...overrides,
  };
  const effects: DocumentEffects = {
    setAnswer: vi.fn((key: string, value: string) => {
      log.push(`answer ${key}=${value}`);
    }),
    refreshDocuments: vi.fn(async () => {
      log.push('refresh');
    }),
    forgetDocument: vi.fn((key: string) => {
      log.push(`forget ${key}`);
    }),
    uploadFailed: vi.fn((key: string, message: string) => {
      log.push(`toast ${key}: ${message}`);
    }),
  };
  const waits: number[] = [];
  const uploads = createDocumentUploads({
    store,
    calls,
    effects,
    wait: async (ms) => {
      waits.push(ms);
    },
    maxPollFailures: 3,
  });
  return { store, calls, effects, uploads, log, phases, waits };
}

describe('an upload', () => {
  it('saves and asks for the form together, posts the file, converts and polls until COMPLETED', async () => {
    const { uploads, log, phases, waits, store, calls } = setUp([
      status('IN_PROGRESS'),
      status('COMPLETED'),
    ]);
    const progress: number[] = [];
    store.subscribe(KEY, () => {
      const { phase } = store.get(KEY);
      if (phase.kind === 'uploading') progress.push(phase.loaded);
    });

    await uploads.upload(KEY, pngFile());

    expect(log).toEqual([
      `presign ${KEY}`,
      'save',
      'post /public/upload essay.png',
      `convert ${KEY} account/object essay.png`,
      `answer ${KEY}=`,
      `status ${KEY}`,
      `status ${KEY}`,
      `answer ${KEY}=ANSWERED`,
      'refresh',
    ]);
    expect(calls.saveAnswers).toHaveBeenCalledTimes(1);
    expect(progress).toEqual([0, 1024, 2048]);
    expect(phases).toEqual(['uploading', 'converting', 'idle']);
    expect(waits).toEqual([CONVERSION_POLL_MS, CONVERSION_POLL_MS]);
    expect(store.get(KEY)).toEqual({
      phase: { kind: 'idle' },
      error: null,
      done: 'essay.png is uploaded and converted to PDF.',
    });
  });

  it('stays busy until the list of converted files is back', async () => {
    const list = deferred();
    const { uploads, store, effects } = setUp([status('COMPLETED')]);
    vi.mocked(effects.refreshDocuments).mockImplementation(() => list.promise);

    const done = uploads.upload(KEY, pngFile());
    await vi.waitFor(() => expect(effects.refreshDocuments).toHaveBeenCalled());
    expect(store.isBusy(KEY)).toBe(true);
    list.resolve();
    await done;
    expect(store.isBusy(KEY)).toBe(false);
  });

  it('on FAILED clears the answer, shows the server message and deletes the conversion', async () => {
    const reason =
      'This PDF is password-protected. Please remove the password and upload it again.';
    const { uploads, log, store } = setUp([status('FAILED', reason)]);

    await uploads.upload(KEY, pngFile('essay.pdf'));

    expect(log.slice(-4)).toEqual([
      `status ${KEY}`,
      `answer ${KEY}=`,
      `toast ${KEY}: ${reason}`,
      `delete ${KEY}`,
    ]);
    expect(store.get(KEY)).toEqual({ phase: { kind: 'idle' }, error: reason, done: null });
  });

  it('on FAILED without a message uses the conversion error', async () => {
    const { uploads, effects } = setUp([status('FAILED')]);
    await uploads.upload(KEY, pngFile());
    expect(effects.uploadFailed).toHaveBeenCalledWith(KEY, CONVERSION_ERROR_MESSAGE);
  });

  it('stops at NOT_ANSWERED without marking the answer', async () => {
    const { uploads, log, store } = setUp([status('NOT_ANSWERED')]);
    await uploads.upload(KEY, pngFile());
    expect(log).not.toContain(`answer ${KEY}=ANSWERED`);
    expect(log).not.toContain(`delete ${KEY}`);
    expect(store.get(KEY).phase.kind).toBe('idle');
    expect(store.get(KEY).error).toBeNull();
  });

  it.each([
    ['too large', pngFile('big.png', 1024 * 1024 + 1), FILE_TOO_LARGE_MESSAGE],
    ['a wrong type', pngFile('notes.txt'), FILE_TYPE_MESSAGE],
    ['no extension', pngFile('transcript'), FILE_TYPE_MESSAGE],
    ['a name over 32 characters', pngFile(`${'a'.repeat(29)}.png`), FILE_NAME_TOO_LONG_MESSAGE],
    ['empty', pngFile('empty.pdf', 0), FILE_EMPTY_MESSAGE],
  ])(
    'refuses a file that is %s before any call, with the spec message',
    async (_, file, message) => {
      const { uploads, log, store, effects } = setUp();
      await uploads.upload(KEY, file);
      expect(log).toEqual([]);
      expect(effects.uploadFailed).not.toHaveBeenCalled();
      expect(store.get(KEY)).toEqual({ phase: { kind: 'idle' }, error: message, done: null });
    },
  );

  it('accepts a name of exactly 32 characters and clears an earlier refusal', async () => {
    const { uploads, store } = setUp([status('COMPLETED')]);
    await uploads.upload(KEY, pngFile('notes.txt'));
    expect(store.get(KEY).error).toBe(FILE_TYPE_MESSAGE);
    await uploads.upload(KEY, pngFile(`${'a'.repeat(28)}.png`));
    expect(store.get(KEY).error).toBeNull();
  });

  it('tells the applicant when the upload form is refused, and posts nothing', async () => {
    const { uploads, log, store } = setUp([], {
      requestUploadForm: async () => {
        throw new ServerError('Your application has already been submitted.', 409);
      },
    });
    await uploads.upload(KEY, pngFile());
    expect(log).toEqual(['save', `toast ${KEY}: Your application has already been submitted.`]);
    expect(store.get(KEY).error).toBe('Your application has already been submitted.');
    expect(store.isBusy(KEY)).toBe(false);
  });

  it('tells the applicant when the storage refuses the file, and converts nothing', async () => {
    const { uploads, log } = setUp([], {
      postFile: async () => {
        throw new ServerError(FILE_TOO_LARGE_MESSAGE, 413);
      },
    });
    await uploads.upload(KEY, pngFile());
    expect(log.at(-1)).toBe(`toast ${KEY}: ${FILE_TOO_LARGE_MESSAGE}`);
    expect(log.some((line) => line.startsWith('convert'))).toBe(false);
  });

  it('goes on with the upload when saving the answers fails', async () => {
    const { uploads, store } = setUp([status('COMPLETED')], {
      saveAnswers: async () => {
        throw new ServerError('offline', null);
      },
    });
    await uploads.upload(KEY, pngFile());
    expect(store.get(KEY).done).toBe('essay.png is uploaded and converted to PDF.');
  });

  it('ignores a second file while the first is on its way', async () => {
    const upload = deferred();
    const { uploads, calls } = setUp([status('COMPLETED')], {
      postFile: () => upload.promise,
    });
    const first = uploads.upload(KEY, pngFile());
    await uploads.upload(KEY, pngFile('second.png'));
    upload.resolve();
    await first;
    expect(calls.requestUploadForm).toHaveBeenCalledTimes(1);
  });

  it('keeps polling through a few failed status reads', async () => {
    const { uploads, store, waits } = setUp([
      new ServerError('offline', null),
      new ServerError('offline', null),
      status('COMPLETED'),
    ]);
    await uploads.upload(KEY, pngFile());
    expect(waits).toHaveLength(3);
    expect(store.get(KEY).error).toBeNull();
    expect(store.get(KEY).done).not.toBeNull();
  });

  it('stops and says so after too many failed status reads in a row', async () => {
    const offline = new ServerError('We could not reach the server.', null);
    const { uploads, store, effects } = setUp([offline, offline, offline, status('COMPLETED')]);
    await uploads.upload(KEY, pngFile());
    expect(effects.uploadFailed).toHaveBeenCalledWith(KEY, 'We could not reach the server.');
    expect(store.get(KEY)).toEqual({
      phase: { kind: 'idle' },
      error: 'We could not reach the server.',
      done: null,
    });
  });

  it('stops quietly when the session has ended', async () => {
    const { uploads, store, effects } = setUp([new UnauthorizedError('signed out')]);
    await uploads.upload(KEY, pngFile());
    expect(effects.uploadFailed).not.toHaveBeenCalled();
    expect(store.get(KEY)).toEqual({ phase: { kind: 'idle' }, error: null, done: null });
  });

  it('drops work of an earlier sign-in at its next step', async () => {
    const upload = deferred();
    const { uploads, store, calls, effects } = setUp([status('COMPLETED')], {
      postFile: () => upload.promise,
    });
    const running = uploads.upload(KEY, pngFile());
    await vi.waitFor(() => expect(store.isBusy(KEY)).toBe(true));
    uploads.reset();
    upload.resolve();
    await running;
    expect(calls.startConversion).not.toHaveBeenCalled();
    expect(effects.setAnswer).not.toHaveBeenCalled();
    expect(store.isBusy(KEY)).toBe(false);
  });
});

describe('a conversion started earlier', () => {
  it('is followed to its end once per key', async () => {
    const { uploads, log, phases } = setUp([status('IN_PROGRESS'), status('COMPLETED')]);
    await uploads.resume(KEY);
    await uploads.resume(KEY);
    expect(log).toEqual([`status ${KEY}`, `status ${KEY}`, `answer ${KEY}=ANSWERED`, 'refresh']);
    expect(phases).toEqual(['checking', 'converting', 'idle']);
  });

  it('that failed is reported and deleted', async () => {
    const { uploads, log } = setUp([status('FAILED', 'This file is damaged.')]);
    await uploads.resume(KEY);
    expect(log).toEqual([
      `status ${KEY}`,
      `answer ${KEY}=`,
      `toast ${KEY}: This file is damaged.`,
      `delete ${KEY}`,
    ]);
  });

  it('is nothing to do when there is no file', async () => {
    const { uploads, log, store } = setUp([status('NOT_ANSWERED')]);
    await uploads.resume(KEY);
    expect(log).toEqual([`status ${KEY}`]);
    expect(store.get(KEY)).toEqual({ phase: { kind: 'idle' }, error: null, done: null });
  });

  it('gives way to a file chosen while its status is read', async () => {
    const read = deferred();
    const replies = [status('NOT_ANSWERED'), status('COMPLETED')];
    const { uploads, store, phases } = setUp([], {
      conversionStatus: vi.fn(async () => {
        if (replies.length === 2) await read.promise;
        return replies.shift() ?? status('NOT_ANSWERED');
      }),
    });
    const resuming = uploads.resume(KEY);
    expect(store.isBusy(KEY)).toBe(true);
    const uploading = uploads.upload(KEY, pngFile());
    await vi.waitFor(() => expect(store.get(KEY).phase.kind).toBe('converting'));
    read.resolve();
    await Promise.all([resuming, uploading]);
    expect(phases).toEqual(['checking', 'uploading', 'converting', 'idle']);
    expect(store.get(KEY).done).toBe('essay.png is uploaded and converted to PDF.');
  });

  it('leaves the question usable when the status cannot be read', async () => {
    const { uploads, store, effects } = setUp([new ServerError('offline', null)]);
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    await uploads.resume(KEY);
    quiet.mockRestore();
    expect(store.isBusy(KEY)).toBe(false);
    expect(effects.uploadFailed).not.toHaveBeenCalled();
  });
});

describe('deleting', () => {
  it('removes the file, clears the answer and forgets the document', async () => {
    const { uploads, log, phases } = setUp();
    await uploads.remove(KEY);
    expect(log).toEqual([`delete ${KEY}`, `answer ${KEY}=`, `forget ${KEY}`]);
    expect(phases).toEqual(['deleting', 'idle']);
  });

  it('rejects with the server reason and keeps the file when the delete fails', async () => {
    const { uploads, effects, store } = setUp([], {
      deleteDocument: async () => {
        throw new ServerError('Your application has already been submitted.', 409);
      },
    });
    await expect(uploads.remove(KEY)).rejects.toThrow('already been submitted');
    expect(effects.forgetDocument).not.toHaveBeenCalled();
    expect(store.isBusy(KEY)).toBe(false);
  });
});

describe('a tab hiding file questions', () => {
  it('may always hide a tab without file questions', async () => {
    const { uploads, calls } = setUp();
    expect(await uploads.mayHide([], true)).toBe(true);
    expect(calls.conversionStatus).not.toHaveBeenCalled();
  });

  it('is blocked while the file is uploading, without asking the server', async () => {
    const upload = deferred();
    const { uploads, calls } = setUp([status('COMPLETED')], {
      postFile: vi.fn(() => upload.promise),
    });
    const running = uploads.upload(KEY, pngFile());
    await vi.waitFor(() => expect(calls.postFile).toHaveBeenCalled());
    expect(await uploads.mayHide([KEY], false)).toBe(false);
    expect(calls.conversionStatus).not.toHaveBeenCalled();
    upload.resolve();
    await running;
  });

  it('is blocked while the documents are still loading', async () => {
    const { uploads, calls } = setUp();
    expect(await uploads.mayHide([KEY], true)).toBe(false);
    expect(calls.conversionStatus).not.toHaveBeenCalled();
  });

  it.each(['UNPROCESSED', 'IN_PROGRESS'] as const)(
    'is blocked while the server says %s, and follows that conversion',
    async (pending) => {
      const { uploads, log } = setUp([status(pending), status('COMPLETED')]);
      expect(await uploads.mayHide([KEY], false)).toBe(false);
      await vi.waitFor(() => expect(log).toContain(`answer ${KEY}=ANSWERED`));
    },
  );

  it('may hide a completed file, and the switch then deletes it', async () => {
    const { uploads, log } = setUp([status('COMPLETED')]);
    expect(await uploads.mayHide([KEY], false)).toBe(true);
    await uploads.removeHidden([KEY], () => false);
    expect(log).toEqual([`status ${KEY}`, `delete ${KEY}`, `answer ${KEY}=`, `forget ${KEY}`]);
  });

  it('deletes nothing for a question without a file', async () => {
    const { uploads, calls } = setUp([status('NOT_ANSWERED')]);
    expect(await uploads.mayHide([KEY], false)).toBe(true);
    await uploads.removeHidden([KEY], () => false);
    expect(calls.deleteDocument).not.toHaveBeenCalled();
  });

  it('deletes a file the list shows even when its status was not read', async () => {
    const { uploads, calls } = setUp();
    await uploads.removeHidden([KEY], (key) => key === KEY);
    expect(calls.deleteDocument).toHaveBeenCalledWith(KEY);
  });

  it('lets the switch go on when the status cannot be read (the delete then reports it)', async () => {
    const { uploads } = setUp([new ServerError('offline', null)]);
    expect(await uploads.mayHide([KEY], false)).toBe(true);
  });
});

describe('the file questions of a tab', () => {
  const file = (key: string): Item => ({ kind: 'field', key, widget: 'file', label: key });
  const text = (key: string): Item => ({ kind: 'field', key, widget: 'text', label: key });

  it('are found inside blocks, repeats, revealed content, switches and nested tabs', () => {
    const items: Item[] = [
      text('essay'),
      file('statement'),
      { kind: 'block', id: 'more', items: [file('transcript'), text('note')] },
      {
        kind: 'repeat',
        id: 'schools',
        addLabel: 'school',
        instances: [
          { prefix: 'hs_', label: 'School 1' },
          { prefix: 'hs_2_', label: 'School 2' },
        ],
        items: [file('record')],
      },
      {
        kind: 'field',
        key: 'has_letter',
        widget: 'confirmCheckbox',
        label: 'I have a letter',
        reveals: [file('letter')],
      },
      {
        kind: 'switch',
        id: 'by_major',
        cases: [{ when: { valueKey: 'major', operator: 'answered' }, items: [file('portfolio')] }],
      },
      {
        kind: 'tabs',
        id: 'inner',
        label: 'Inner',
        defaultTab: 'a',
        tabs: [{ id: 'a', label: 'A', items: [file('inner_doc')] }],
      },
    ];
    expect(fileKeysOfItems(items)).toEqual([
      'statement',
      'transcript',
      'hs_record',
      'hs_2_record',
      'letter',
      'portfolio',
      'inner_doc',
    ]);
    expect(fileKeysOfItems([text('essay')])).toEqual([]);
  });
});
