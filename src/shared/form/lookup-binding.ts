/**
 * What a form field may search and fill (spec 001 sections 3 and 7). The engine owns this
 * vocabulary because a model names it in `Field.lookup`; src/shared/lookup builds the search and
 * the filling on top of it, so the engine never imports the lookup code.
 */

export const LOOKUP_CATEGORIES = ['college_ceeb', 'hs_ceeb', 'address'] as const;
export type LookupCategory = (typeof LOOKUP_CATEGORIES)[number];

/** A record's fields, named as the answer keys they fill (spec 001 section 3). */
export const LOOKUP_RECORD_FIELDS = [
  'name',
  'address_line_1',
  'city',
  'state',
  'zip',
  'ceeb',
  'country',
] as const;
export type LookupRecordField = (typeof LOOKUP_RECORD_FIELDS)[number];

/**
 * A text field that searches a lookup list: what the applicant types is the field's own answer,
 * and picking a result also fills `fills`. The keys are written as the field's own key is (before
 * a repeat instance's prefix).
 */
export interface LookupBinding {
  category: LookupCategory;
  fills: Readonly<Partial<Record<LookupRecordField, string>>>;
}
