import { describe, expect, it } from 'vitest';
import type { ChecklistItem } from '../../shared/staff/application-api';
import { CHECKLIST_LABELS } from '../../shared/staff/checklist';
import {
  itemsToRemind,
  mayUploadAfterSubmit,
  STATUS_HOW,
  type StatusTenant,
  statusItemOf,
} from './applicant-status';
import type { SubmittedApplication } from './applicant-status-store';

const tenant: StatusTenant = {
  transcript_email: 'transcripts@example.edu',
  help_email: 'help@example.edu',
  urls: {
    home: 'https://example.edu',
    privacy: 'https://example.edu/privacy',
    pdf_reader: 'https://example.edu/reader',
    application_fee: 'https://pay.example.edu/fee',
  },
  missing_item_reminder_days: 7,
};

const submitted: SubmittedApplication = { submitted: true, answers: {}, receiptDocuments: [] };

function item(overrides: Partial<ChecklistItem>): ChecklistItem {
  return {
    key: 'fee',
    kind: 'fee',
    label: CHECKLIST_LABELS.fee,
    answer_key: null,
    state: 'awaiting',
    set_by: null,
    set_at: null,
    ...overrides,
  };
}

describe('the checklist as the applicant sees it', () => {
  it('names the college and where its transcript goes', () => {
    const transcript = item({
      key: 'transcript:1',
      kind: 'transcript',
      label: CHECKLIST_LABELS.transcript('Broward College'),
    });
    expect(statusItemOf(transcript, submitted, tenant)).toEqual({
      key: 'transcript:1',
      label: 'Official transcript: Broward College',
      state: 'awaiting',
      provider: 'college',
      upload_answer_key: null,
      how: 'Ask Broward College to send your official transcript to transcripts@example.edu.',
    });
  });

  it('sends the fee to its page, and leaves a waiver and tenant items to the office', () => {
    expect(statusItemOf(item({}), submitted, tenant)).toMatchObject({
      provider: 'applicant',
      how: STATUS_HOW.fee('https://pay.example.edu/fee'),
    });
    expect(
      statusItemOf(item({ label: CHECKLIST_LABELS.feeWaiver }), submitted, tenant),
    ).toMatchObject({ provider: 'office', how: STATUS_HOW.feeWaiver });
    expect(
      statusItemOf(
        item({ key: 'tenant:interview', kind: 'tenant', label: 'Interview' }),
        submitted,
        tenant,
      ),
    ).toMatchObject({ provider: 'office', how: STATUS_HOW.office });
  });

  it('offers an upload only for an awaited document that was not submitted', () => {
    const document = item({
      key: 'document:hs_transcript',
      kind: 'document',
      label: 'Unofficial high school transcript',
      answer_key: 'hs_transcript',
    });
    expect(mayUploadAfterSubmit(document, submitted)).toBe(true);
    expect(statusItemOf(document, submitted, tenant)).toMatchObject({
      provider: 'applicant',
      upload_answer_key: 'hs_transcript',
      how: STATUS_HOW.upload,
    });
    const answered = { ...submitted, answers: { hs_transcript: 'ANSWERED' } };
    expect(mayUploadAfterSubmit(document, answered)).toBe(false);
    expect(statusItemOf(document, answered, tenant)).toMatchObject({
      upload_answer_key: null,
      how: STATUS_HOW.document('help@example.edu'),
    });
    const fingerprinted = { ...submitted, receiptDocuments: ['hs_transcript'] };
    expect(mayUploadAfterSubmit(document, fingerprinted)).toBe(false);
    expect(mayUploadAfterSubmit(document, { ...submitted, submitted: false })).toBe(false);
    expect(mayUploadAfterSubmit({ ...document, state: 'received' }, submitted)).toBe(false);
    expect(statusItemOf({ ...document, state: 'waived' }, submitted, tenant).how).toBe('');
  });

  it('reminds only of awaited items the applicant provides', () => {
    const items = [
      statusItemOf(item({}), submitted, tenant),
      statusItemOf(
        item({ key: 'transcript:1', kind: 'transcript', label: 'x' }),
        submitted,
        tenant,
      ),
      statusItemOf(item({ key: 'tenant:a', kind: 'tenant', label: 'A' }), submitted, tenant),
    ];
    expect(itemsToRemind({ submitted: true, items, missing: 3 }).map((entry) => entry.key)).toEqual(
      ['fee'],
    );
  });
});
