import { createHmac, timingSafeEqual } from 'node:crypto';
import { type ChangeLogPosition, isSnapshotText } from './change-log-store';

/*
 * A feed's cursor is opaque to the client and signed by the server: a client cannot make one up,
 * change one, or carry one from one feed to another, so a position is always one the server
 * gave. Signing keys are derived from AUDIT_CHAIN_KEY, the one secret every production server has.
 */

export type CursorKind = 'applications' | 'decisions';

/** Without AUDIT_CHAIN_KEY (development and tests only): a fixed key, good for nothing else. */
const DEVELOPMENT_SECRET = 'transfer-portal development cursor key';
const KEY_LABEL = 'api-v1 feed cursor';
const MAC_BYTES = 16;

export interface FeedCursors {
  issue(kind: CursorKind, position: ChangeLogPosition): string;
  /** The position a cursor names, or null for one this server did not issue for this feed. */
  read(kind: CursorKind, cursor: string): ChangeLogPosition | null;
}

export function createFeedCursors(secret: string | undefined): FeedCursors {
  const key = createHmac('sha256', secret ?? DEVELOPMENT_SECRET)
    .update(KEY_LABEL)
    .digest();
  const macOf = (payload: string) =>
    createHmac('sha256', key).update(payload).digest().subarray(0, MAC_BYTES);

  return {
    issue(kind, position) {
      const payload = Buffer.from(
        JSON.stringify({ k: kind, s: position.seq, p: position.snapshot }),
      ).toString('base64url');
      return `${payload}.${macOf(payload).toString('base64url')}`;
    },
    read(kind, cursor) {
      const [payload, mac, ...rest] = cursor.split('.');
      if (!payload || !mac || rest.length > 0) return null;
      const given = Buffer.from(mac, 'base64url');
      const expected = macOf(payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      let decoded: unknown;
      try {
        decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        return null;
      }
      const { k, s, p } = (decoded ?? {}) as { k?: unknown; s?: unknown; p?: unknown };
      if (k !== kind || typeof s !== 'number' || !Number.isSafeInteger(s) || s < 0) return null;
      if (p !== null && !isSnapshotText(p)) return null;
      return { seq: s, snapshot: p };
    },
  };
}
