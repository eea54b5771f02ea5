import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReleasedDecision } from '../../shared/api/status';
import { DecisionSection } from './decision-section';

// What the server sends: the letter's deadline in the office's words, marked with its moment.
const OFFICE_TEXT = 'May 1, 2099 at 11:59 PM EDT';
const MOMENT = '2099-05-02T03:59:59.999Z';
// The same moment as an applicant in Los Angeles reads it.
const READERS_TEXT = 'May 1, 2099 at 8:59 PM PDT';

const offer: ReleasedDecision = {
  label: 'Admit',
  released_at: '2026-11-20T15:00:00.000Z',
  letter_html: `<h2>Congratulations, Ana!</h2>\n<p>Accept or decline this offer by <strong><time datetime="${MOMENT}">${OFFICE_TEXT}</time></strong>.</p>\n`,
  offer: true,
  reply_deadline: MOMENT,
  reply: null,
  replied_at: null,
};

function textOf(decision: ReleasedDecision): string {
  return renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <DecisionSection decision={decision} />
    </QueryClientProvider>,
  )
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

describe('the released decision', () => {
  beforeEach(() => {
    vi.stubEnv('TZ', 'America/Los_Angeles');
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('says the reply deadline one way, in the applicant’s zone, named', () => {
    const text = textOf(offer);
    expect(text).toContain(`Please reply by ${READERS_TEXT} .`);
    // In the letter and beside the buttons, word for word; never the office's reading as well.
    expect(text.split(READERS_TEXT)).toHaveLength(3);
    expect(text).not.toContain(OFFICE_TEXT);
    expect(text).toContain('Released November 20, 2026 at 7:00 AM PST');
  });

  it('says a passed deadline in the same words', () => {
    const text = textOf({ ...offer, reply_deadline: '2020-05-02T03:59:59.999Z' });
    expect(text).toContain('The deadline to reply, May 1, 2020 at 8:59 PM PDT , has passed.');
    expect(text).not.toContain('Accept offer');
  });
});
