import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FILE_TOO_LARGE_MESSAGE } from '../../shared/documents/file-rules';
import {
  postFileToUploadForm,
  resetDocumentData,
  UPLOAD_FAILED_MESSAGE,
  uploadRefusal,
} from './documents';
import { ServerError } from './http-client';
import { queryKeys } from './query-keys';

type Handler = () => void;

/** Stands in for the browser's XMLHttpRequest: records what is sent and replays a reply. */
class FakeXhr {
  static last: FakeXhr | null = null;
  static reply: { status: number; body: string } | 'network-error' = { status: 204, body: '' };
  readonly upload = {
    listeners: [] as Array<
      (event: { lengthComputable: boolean; loaded: number; total: number }) => void
    >,
    addEventListener: (
      _type: string,
      listener: (event: { lengthComputable: boolean; loaded: number; total: number }) => void,
    ) => {
      this.upload.listeners.push(listener);
    },
  };
  private readonly handlers = new Map<string, Handler>();
  method = '';
  url = '';
  body: FormData | null = null;
  status = 0;
  responseText = '';

  constructor() {
    FakeXhr.last = this;
  }

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }

  addEventListener(type: string, handler: Handler) {
    this.handlers.set(type, handler);
  }

  send(body: FormData) {
    this.body = body;
    for (const listener of this.upload.listeners) {
      listener({ lengthComputable: true, loaded: 10, total: 20 });
      listener({ lengthComputable: false, loaded: 0, total: 0 });
      listener({ lengthComputable: true, loaded: 20, total: 20 });
    }
    const reply = FakeXhr.reply;
    if (reply === 'network-error') {
      this.handlers.get('error')?.();
      return;
    }
    this.status = reply.status;
    this.responseText = reply.body;
    this.handlers.get('load')?.();
  }
}

const FORM = {
  url: 'https://bucket.s3.amazonaws.com/',
  fields: {
    key: 'account/object',
    'Content-Type': 'image/png',
    policy: 'p',
    'X-Amz-Signature': 's',
  },
};

describe('posting a file to the upload form', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    FakeXhr.reply = { status: 204, body: '' };
  });

  it('sends the policy fields in order and the file last, reporting progress', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const progress: Array<[number, number]> = [];
    await postFileToUploadForm(FORM, new Blob(['png bytes']), 'essay.png', (loaded, total) =>
      progress.push([loaded, total]),
    );
    const sent = FakeXhr.last;
    expect(sent?.method).toBe('POST');
    expect(sent?.url).toBe(FORM.url);
    const entries = [...(sent?.body?.entries() ?? [])];
    expect(entries.map(([name]) => name)).toEqual([
      'key',
      'Content-Type',
      'policy',
      'X-Amz-Signature',
      'file',
    ]);
    const file = entries.at(-1)?.[1];
    expect(file).toBeInstanceOf(File);
    expect((file as File).name).toBe('essay.png');
    expect(progress).toEqual([
      [10, 20],
      [20, 20],
    ]);
  });

  it("rejects with our server's sentence", async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    FakeXhr.reply = {
      status: 403,
      body: JSON.stringify({
        message: 'This upload link has expired. Please try uploading again.',
      }),
    };
    const upload = postFileToUploadForm(FORM, new Blob(['x']), 'a.png', () => {});
    await expect(upload).rejects.toThrow('This upload link has expired.');
    await expect(upload).rejects.toBeInstanceOf(ServerError);
  });

  it('rejects with the connection message when nothing answers', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    FakeXhr.reply = 'network-error';
    await expect(postFileToUploadForm(FORM, new Blob(['x']), 'a.png', () => {})).rejects.toThrow(
      UPLOAD_FAILED_MESSAGE,
    );
  });
});

describe('the reason a refused upload is given', () => {
  it('is the size message for 413 and for S3 EntityTooLarge', () => {
    expect(uploadRefusal(413, '')).toBe(FILE_TOO_LARGE_MESSAGE);
    expect(
      uploadRefusal(400, '<Error><Code>EntityTooLarge</Code><Message>Too big</Message></Error>'),
    ).toBe(FILE_TOO_LARGE_MESSAGE);
  });

  it('is the JSON message when there is one, else the connection message', () => {
    expect(uploadRefusal(400, '{"message":"No file was sent."}')).toBe('No file was sent.');
    expect(uploadRefusal(400, '{"message":"  "}')).toBe(UPLOAD_FAILED_MESSAGE);
    expect(uploadRefusal(403, '<Error><Code>AccessDenied</Code></Error>')).toBe(
      UPLOAD_FAILED_MESSAGE,
    );
    expect(uploadRefusal(500, 'not json')).toBe(UPLOAD_FAILED_MESSAGE);
  });
});

describe('after a failed tab switch', () => {
  it('resets the cached converted documents and every conversion status, and nothing else', async () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(queryKeys.documentAnswers, {
      hs_transcript: { file_name: 'transcript.pdf', file_size: 10 },
    });
    queryClient.setQueryData(queryKeys.documentConversion('hs_transcript'), {
      status: 'COMPLETED',
    });
    queryClient.setQueryData(queryKeys.documentConversion('personal_statement_doc'), {
      status: 'IN_PROGRESS',
    });
    queryClient.setQueryData(queryKeys.tabs, { personal_statement: 'upload' });

    await resetDocumentData(queryClient);

    expect(queryClient.getQueryData(queryKeys.documentAnswers)).toBeUndefined();
    expect(queryClient.getQueryData(queryKeys.documentConversion('hs_transcript'))).toBeUndefined();
    expect(
      queryClient.getQueryData(queryKeys.documentConversion('personal_statement_doc')),
    ).toBeUndefined();
    expect(queryClient.getQueryData(queryKeys.tabs)).toEqual({ personal_statement: 'upload' });
  });
});
