import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ReleasedDecision } from '../../shared/api/status';
import { DecisionSection } from './decision-section';

const DEADLINE_TEXT = 'May 1, 2099 at 11:59 PM EDT';

const offer: ReleasedDecision = {
  label: 'Admit',
  released_at: '2026-11-20T15:00:00.000Z',
  letter_html: `<h2>Congratulations, Ana!</h2>\n<p>Accept or decline this offer by <strong>${DEADLINE_TEXT}</strong>.</p>\n`,
  offer: true,
  reply_deadline: '2099-05-02T03:59:59.999Z',
  reply_deadline_text: DEADLINE_TEXT,
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
  it('says the reply deadline in the letter’s own words, and no other way', () => {
    const text = textOf(offer);
    expect(text).toContain(`Please reply by ${DEADLINE_TEXT} .`);
    // Twice, word for word: in the letter and beside the buttons; never the browser's reading.
    expect(text.split(DEADLINE_TEXT)).toHaveLength(3);
    expect(text).not.toMatch(/May 2, 2099|3:59 AM|7:59 PM|8:59 PM/);
  });

  it('says a passed deadline in the same words', () => {
    const text = textOf({ ...offer, reply_deadline: '2020-05-02T03:59:59.999Z' });
    expect(text).toContain(`The deadline to reply, ${DEADLINE_TEXT} , has passed.`);
    expect(text).not.toContain('Accept offer');
  });
});
