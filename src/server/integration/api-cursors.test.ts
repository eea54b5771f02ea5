import { describe, expect, it } from 'vitest';
import { createFeedCursors } from './api-cursors';

describe('feed cursors', () => {
  const cursors = createFeedCursors('a-secret-of-at-least-thirty-two-characters');

  it('read back the position they were issued for, in their own feed only', () => {
    const cursor = cursors.issue('applications', { seq: 42, snapshot: '1234:1240:1235,1237' });
    expect(cursors.read('applications', cursor)).toEqual({
      seq: 42,
      snapshot: '1234:1240:1235,1237',
    });
    expect(cursors.read('decisions', cursor)).toBeNull();
    const first = cursors.issue('decisions', { seq: 0, snapshot: null });
    expect(cursors.read('decisions', first)).toEqual({ seq: 0, snapshot: null });
  });

  it('refuse anything the server did not issue', () => {
    const cursor = cursors.issue('applications', { seq: 42, snapshot: '1234:1240:1235,1237' });
    const [payload, mac] = cursor.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify({ k: 'applications', s: 1, x: '1' })).toString(
      'base64url',
    );
    for (const other of [
      '',
      'garbage',
      `${forged}.${mac}`,
      `${payload}.${mac}x`,
      `${payload}.`,
      `${payload}.${mac}.${mac}`,
      createFeedCursors('another-secret-of-at-least-thirty-two-chars').issue('applications', {
        seq: 42,
        snapshot: '1234:1240:1235,1237',
      }),
    ])
      expect(cursors.read('applications', other), other).toBeNull();
  });

  it('sign without a configured key too, with a key of their own', () => {
    const development = createFeedCursors(undefined);
    const cursor = development.issue('applications', { seq: 7, snapshot: '9:9:' });
    expect(development.read('applications', cursor)).toEqual({ seq: 7, snapshot: '9:9:' });
    expect(cursors.read('applications', cursor)).toBeNull();
  });
});
