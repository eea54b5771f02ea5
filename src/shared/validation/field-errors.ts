import type { z } from 'zod';

export const UNKNOWN_FIELD_MESSAGE = 'This field is not part of the request.';

/**
 * The `errors` map of the API and of every form: one entry per field (dotted path), messages in
 * the order the rules ran, without duplicates. Used by the browser and the server alike.
 */
export function fieldErrors(error: z.ZodError): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (key: string, message: string) => {
    // Keys come from the request: 'constructor' must not find Object's own.
    const list = Object.hasOwn(errors, key) ? (errors[key] as string[]) : [];
    if (!list.includes(message)) list.push(message);
    errors[key] = list;
  };
  for (const issue of error.issues) {
    const prefix = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add(prefix ? `${prefix}.${key}` : key, UNKNOWN_FIELD_MESSAGE);
    } else {
      add(prefix || '_', issue.message);
    }
  }
  return errors;
}
