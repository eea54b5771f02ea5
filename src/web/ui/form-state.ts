/** Pure helpers behind the account forms' error display (spec 000 section 5). */

export type ErrorMap<Field extends string> = Partial<Record<Field, readonly string[]>>;

/** One list without duplicates, first occurrence first (spec 000 section 5: errors are de-duplicated). */
export function uniqueMessages(...lists: Array<readonly string[] | undefined>): string[] {
  const seen = new Set<string>();
  for (const list of lists) {
    for (const message of list ?? []) {
      seen.add(message);
    }
  }
  return [...seen];
}

/**
 * The messages a field shows now. Rule errors wait until the field was left once or a submit
 * was tried, so nobody is told off while still typing; an action's own message (such as the
 * resend check) shows at once and stands in for the rule errors until the field changes.
 */
export function shownErrors<Field extends string>(
  field: Field,
  ruleErrors: ErrorMap<Field>,
  actionErrors: ErrorMap<Field>,
  revealed: boolean,
): string[] {
  const action = actionErrors[field];
  if (action && action.length > 0) {
    return uniqueMessages(action);
  }
  return revealed ? uniqueMessages(ruleErrors[field]) : [];
}

/** The first field, in screen order, that has an error: where focus goes when submit is refused. */
export function firstFieldWithErrors<Field extends string>(
  order: readonly Field[],
  errors: ErrorMap<Field>,
): Field | null {
  return order.find((field) => (errors[field]?.length ?? 0) > 0) ?? null;
}
