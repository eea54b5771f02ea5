import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ApplicantStatus, StatusItem } from '../../shared/api/status';
import { applicantStatusQueryOptions } from '../data/status';
import { StatusChecklist, stateChanges } from './status-checklist';

const fee: StatusItem = {
  key: 'fee',
  label: 'Application fee',
  state: 'awaiting',
  provider: 'applicant',
  upload_answer_key: null,
  how: 'Pay the application fee at https://pay.example.edu/fee.',
};
const transcript: StatusItem = {
  key: 'transcript:1',
  label: 'Official transcript: Broward College',
  state: 'received',
  provider: 'college',
  upload_answer_key: null,
  how: '',
};

function render(status: ApplicantStatus): string {
  const client = new QueryClient();
  client.setQueryData(applicantStatusQueryOptions.queryKey, status);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <StatusChecklist />
    </QueryClientProvider>,
  );
}

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe('the status checklist', () => {
  it('writes out each state and what to do about a missing item', () => {
    const html = render({ submitted: true, items: [fee, transcript], missing: 1 });
    const text = textOf(html);
    expect(text).toContain('What we still need');
    expect(text).toContain('1 item is still missing.');
    expect(text).toContain('Application fee Awaiting');
    expect(text).toContain('Pay the application fee at https://pay.example.edu/fee.');
    expect(text).toContain('Official transcript: Broward College Received');
    // The icons only repeat the words.
    expect(html).not.toMatch(/<svg(?![^>]*aria-hidden="true")/);
  });

  it('says when nothing is missing', () => {
    expect(textOf(render({ submitted: true, items: [transcript], missing: 0 }))).toContain(
      'We have everything we need to review your application.',
    );
  });

  it('announces a change of state, never the first read', () => {
    expect(stateChanges(null, [fee])).toBe('');
    const before = new Map<string, StatusItem['state']>([
      ['fee', 'awaiting'],
      ['transcript:1', 'received'],
    ]);
    expect(stateChanges(before, [{ ...fee, state: 'received' }, transcript])).toBe(
      'Application fee: Received.',
    );
  });
});
