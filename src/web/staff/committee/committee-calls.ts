import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { GENERIC_SERVER_ERROR_MESSAGE } from '../../../shared/api/errors';
import {
  type ApplicationNote,
  type assignListSchema,
  assignmentResultSchema,
  committeeViewSchema,
  noteSchema,
  REVIEW_API,
  type ReaderLoad,
  readerLoadSchema,
} from '../../../shared/review/review-api';
import { getJson, postJson, ServerError } from '../../data/http-client';

/** A reply checked against the contract; one that does not match is a failed call. */
export function parsed<T>(schema: z.ZodType<T>) {
  return (body: unknown): T => {
    const result = schema.safeParse(body);
    if (!result.success) throw new ServerError(GENERIC_SERVER_ERROR_MESSAGE, 200);
    return result.data;
  };
}

/**
 * A list sent bare or inside an object under one of `keys`: the contract names the items, not
 * the wrapper.
 */
export function listReply<T>(schema: z.ZodType<T>, ...keys: string[]) {
  const items = z.array(schema);
  return (body: unknown): T[] => {
    const bare = items.safeParse(body);
    if (bare.success) return bare.data;
    if (typeof body === 'object' && body !== null) {
      for (const key of keys) {
        const inner = items.safeParse((body as Record<string, unknown>)[key]);
        if (inner.success) return inner.data;
      }
    }
    throw new ServerError(GENERIC_SERVER_ERROR_MESSAGE, 200);
  };
}

export interface Readers {
  readers: ReaderLoad[];
  /** The tenant's default for a blind second read, when the reply says it. */
  second_reads: boolean | null;
}

const readersReply = z.union([
  z.array(readerLoadSchema).transform((readers) => ({ readers, second_reads: null })),
  z
    .looseObject({
      readers: z.array(readerLoadSchema),
      second_reads: z.boolean().optional(),
    })
    .transform((reply) => ({ readers: reply.readers, second_reads: reply.second_reads ?? null })),
]);

const id = (value: string) => encodeURIComponent(value);

/** The committee's calls, one per route of src/shared/review/review-api.ts. */
export const committeeCalls = {
  committee: (applicationId: string) =>
    getJson<unknown>(REVIEW_API.committee(id(applicationId))).then(parsed(committeeViewSchema)),
  notes: (applicationId: string) =>
    getJson<unknown>(REVIEW_API.notes(id(applicationId))).then(listReply(noteSchema, 'notes')),
  addNote: (applicationId: string, body: string) =>
    postJson<unknown>(REVIEW_API.notes(id(applicationId)), { body }),
  readers: (): Promise<Readers> =>
    getJson<unknown>(REVIEW_API.readers).then(parsed<Readers>(readersReply)),
  assign: (body: z.infer<typeof assignListSchema>) =>
    postJson<unknown>(REVIEW_API.assignments, body).then(parsed(assignmentResultSchema)),
};

export const committeeKeys = {
  committee: (applicationId: string) => ['staff', 'committee', applicationId] as const,
  notes: (applicationId: string) => ['staff', 'notes', applicationId] as const,
  readers: ['staff', 'readers'] as const,
};

export const readersQuery = queryOptions({
  queryKey: committeeKeys.readers,
  queryFn: committeeCalls.readers,
});

/** Newest first, whatever order the reply came in. */
export function newestFirst(notes: readonly ApplicationNote[]): ApplicationNote[] {
  return [...notes].sort((a, b) => b.created_at.localeCompare(a.created_at));
}
