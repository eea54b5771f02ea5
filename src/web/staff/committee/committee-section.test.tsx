import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import {
  type CommitteeView,
  REVIEW_MESSAGES_API,
  type ReadView,
} from '../../../shared/review/review-api';
import { DEFAULT_REVIEW_FORM } from '../../../shared/review/review-config';
import { EMPTY_LIST_QUERY } from '../../../shared/staff/list-query';
import { ROLE_PERMISSIONS, type StaffRole } from '../../../shared/staff/permissions';
import type { StaffMeResponse } from '../../../shared/staff/staff-api';
import { staffKeys } from '../shell/staff-calls';
import { AssignListPanel, assignDescription } from './assign-list-panel';
import { committeeKeys } from './committee-calls';
import { CommitteeReport, CommitteeSection } from './committee-section';
import { NOTES_PRIVACY, NotesList, NotesSection, noteErrors } from './notes-section';
import { ReassignReadForm } from './reassign-read-form';

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

function member(role: StaffRole): StaffMeResponse {
  return {
    id: 'me',
    email: 'me@example.edu',
    display_name: 'Me',
    role,
    permissions: [...ROLE_PERMISSIONS[role]],
    method: 'password',
    step_up_until: null,
    has_authenticator: true,
    idle_minutes: 30,
  };
}

function render(node: ReactNode, fill: (client: QueryClient) => void = () => {}): string {
  const client = new QueryClient();
  fill(client);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <MemoryRouter>{node}</MemoryRouter>
    </QueryClientProvider>,
  );
}

const read = (over: Partial<ReadView>): ReadView => ({
  id: crypto.randomUUID(),
  application_id: 'app',
  round: 'first',
  status: 'submitted',
  reader_id: 'r1',
  reader_name: 'Pat Lee',
  form_cycle: '*',
  form_version: 1,
  answers: {},
  score: null,
  recommendation: null,
  assigned_at: '2027-01-01T00:00:00.000Z',
  saved_at: null,
  submitted_at: '2027-01-05T15:00:00.000Z',
  blinded: false,
  ...over,
});

const view: CommitteeView = {
  form: DEFAULT_REVIEW_FORM,
  reads: [
    read({
      reader_name: 'Pat Lee',
      answers: {
        academic: '5',
        coursework_fit: '4',
        writing: '3',
        trajectory: '4',
        comments: 'Strong math.',
      },
      score: 4.17,
      recommendation: 'ADMIT',
    }),
    read({
      reader_name: 'Sam Roe',
      round: 'second',
      answers: { academic: '3', coursework_fit: '2', writing: '3', trajectory: '2' },
      score: 2.5,
      recommendation: 'DENY',
    }),
  ],
  criteria: [
    {
      key: 'academic',
      label: 'Academic preparation',
      count: 2,
      mean: 4,
      spread: 1,
      min: 3,
      max: 5,
    },
    {
      key: 'coursework_fit',
      label: 'Coursework for the program',
      count: 2,
      mean: 3,
      spread: 1,
      min: 2,
      max: 4,
    },
    { key: 'writing', label: 'Personal statement', count: 2, mean: 3, spread: 0, min: 3, max: 3 },
    {
      key: 'trajectory',
      label: 'Trajectory and context',
      count: 2,
      mean: 3,
      spread: 1,
      min: 2,
      max: 4,
    },
  ],
  mean_score: 3.33,
  recommendations: [
    { code: 'ADMIT', label: 'Admit', count: 1 },
    { code: 'DENY', label: 'Deny', count: 1 },
  ],
  bands: [
    { label: 'Strong', min: 4 },
    { label: 'Sound', min: 3 },
    { label: 'Weak', min: 1 },
  ],
  third_read_gap: 1.5,
};

describe('the committee’s view of the reads', () => {
  it('shows every read with its numbers, each criterion’s spread and the tally', () => {
    const html = render(<CommitteeReport view={view} showBands={false} onShowBands={() => {}} />);
    const text = textOf(html);
    expect(text).toContain('Pat Lee First read Submitted 4.17 Admit Jan 5, 2027');
    expect(text).toContain('5 4 3 4 Strong math.');
    expect(text).toContain('Sam Roe Second read (blind) Submitted 2.50 Deny');
    expect(text).toContain('Academic preparation 4.0 ± 1.0, 3–5 (2 reads)');
    expect(text).toContain('Personal statement 3.0 ± 0.0, 3');
    expect(text).toContain('Mean score 3.33');
    expect(text).toContain('Admit: 1 read');
    expect(text).toContain('The scores differ by 1.67, more than the third-read gap of 1.5');
    expect(html).toContain('href="/staff?recommendation=ADMIT"');
    expect(text).toContain('Decide for this list by recommendation: Deny');
    expect(html).toMatch(
      /<input id="[^"]+" type="checkbox"\/><label for="[^"]+">Show score bands<\/label>/,
    );
  });

  it('shows each score as its band once the toggle is on', () => {
    const text = textOf(render(<CommitteeReport view={view} showBands onShowBands={() => {}} />));
    expect(text).toContain('Pat Lee First read Submitted Strong Admit');
    expect(text).toContain('Strong Strong Sound Strong Strong math.');
    expect(text).toContain('Sam Roe Second read (blind) Submitted Weak Deny');
    expect(text).toContain('Academic preparation Strong (Sound to Strong)');
    expect(text).toContain('Mean score Sound');
    expect(text).not.toContain('4.17');
  });

  it('offers no toggle without the tenant’s bands', () => {
    const text = textOf(
      render(<CommitteeReport view={{ ...view, bands: null }} showBands onShowBands={() => {}} />),
    );
    expect(text).not.toContain('Show score bands');
    expect(text).toContain('4.17');
  });

  it('is shown only to a role with reviews.committee', () => {
    const fill = (role: StaffRole) => (client: QueryClient) => {
      client.setQueryData(staffKeys.me, member(role));
      client.setQueryData(committeeKeys.committee('app'), view);
    };
    expect(render(<CommitteeSection applicationId="app" />, fill('reader'))).toBe('');
    expect(render(<CommitteeSection applicationId="app" />, fill('evaluator'))).toBe('');
    expect(textOf(render(<CommitteeSection applicationId="app" />, fill('admin')))).toContain(
      'Committee: every read',
    );
  });
});

describe('internal notes', () => {
  it('refuses an empty note with the shared message, as the server does', () => {
    expect(noteErrors('')).toEqual([REVIEW_MESSAGES_API.noteEmpty]);
    expect(noteErrors('  \n ')).toEqual([REVIEW_MESSAGES_API.noteEmpty]);
    expect(noteErrors('x'.repeat(5001))).toHaveLength(1);
    expect(noteErrors('Called the college about the spring transcript.')).toEqual([]);
  });

  it('lists notes newest first with author and time, and says who sees them', () => {
    const notes = [
      { id: '1', author: 'Pat Lee', body: 'First.', created_at: '2027-01-01T10:00:00.000Z' },
      { id: '2', author: 'Sam Roe', body: 'Second.', created_at: '2027-01-02T10:00:00.000Z' },
    ];
    const text = textOf(render(<NotesList notes={notes} />));
    expect(text.indexOf('Sam Roe')).toBeLessThan(text.indexOf('Pat Lee'));
    expect(text).toContain('Sam Roe Jan 2, 2027');
    const section = textOf(
      render(<NotesSection applicationId="app" />, (client) =>
        client.setQueryData(committeeKeys.notes('app'), notes),
      ),
    );
    expect(section).toContain(NOTES_PRIVACY);
    expect(section).toContain('New note (required)');
    expect(section).toContain('Add note');
  });
});

describe('assigning a list', () => {
  const readers = {
    readers: [
      { id: 'r1', name: 'Pat Lee', role: 'reader', disabled: false, open: 12, submitted: 40 },
      { id: 'r2', name: 'Gone Away', role: 'reader', disabled: true, open: 0, submitted: 3 },
    ],
    second_reads: false,
  };

  it('is offered only with reviews.assign, to readers not disabled, with their open counts', () => {
    const fill = (role: StaffRole) => (client: QueryClient) => {
      client.setQueryData(staffKeys.me, member(role));
      client.setQueryData(['staff', 'readers'], readers);
    };
    expect(render(<AssignListPanel query={EMPTY_LIST_QUERY} count={240} />, fill('reader'))).toBe(
      '',
    );
    const html = render(<AssignListPanel query={EMPTY_LIST_QUERY} count={240} />, fill('admin'));
    const text = textOf(html);
    expect(text).toContain('Assign this list');
    expect(text).toContain('240 applications');
    expect(text).toContain('Pat Lee (12 open)');
    expect(text).not.toContain('Gone Away');
    // The tenant's default for second reads, from the readers' reply.
    expect(html).toMatch(/<input type="checkbox"\/><span>Add a blind second read/);
  });

  it('says in the confirmation what will happen', () => {
    expect(
      assignDescription({
        count: 240,
        readers: 2,
        body: {
          query: '',
          reader_ids: ['a', 'b'],
          second_reads: true,
          cap: 100,
          expected_count: 240,
        },
      }),
    ).toBe(
      'Each application also gets a blind second read by a different reader. At most 100 open reads per reader. If the list has changed by then, nothing is assigned.',
    );
  });
});

describe('giving a read to another reader', () => {
  const readers = {
    readers: [
      { id: 'r1', name: 'Pat Lee', role: 'reader', disabled: false, open: 3, submitted: 1 },
      { id: 'r2', name: 'Sam Cho', role: 'reader', disabled: true, open: 0, submitted: 0 },
    ],
    second_reads: true,
  };
  const fill = (client: QueryClient) => client.setQueryData(committeeKeys.readers, readers);

  it('offers the reads not yet submitted and the members who are not disabled', () => {
    const html = render(
      <ReassignReadForm
        applicationId="app"
        reads={[
          read({ id: 'done' }),
          read({ id: 'open', round: 'second', status: 'draft', reader_name: 'Ana Ruiz' }),
        ]}
      />,
      fill,
    );
    expect(textOf(html)).toContain('Give a read to another reader');
    expect(html).toContain('value="open"');
    expect(html).not.toContain('value="done"');
    expect(textOf(html)).toContain('Second read (blind): Ana Ruiz');
    expect(textOf(html)).toContain('Pat Lee (3 open)');
    expect(textOf(html)).not.toContain('Sam Cho');
  });

  it('is not there when every read is submitted', () => {
    expect(render(<ReassignReadForm applicationId="app" reads={[read({})]} />, fill)).toBe('');
  });
});
