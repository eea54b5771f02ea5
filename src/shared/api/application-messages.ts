/** Messages of the application's life cycle; apart from the schemas, so screens need no zod. */
export const SUBMITTED_MESSAGE = 'Your application was successfully submitted.';
export const ERROR_SUMMARY_TITLE = "We're missing some information!";
export const ALREADY_SUBMITTED_MESSAGE =
  'Your application has already been submitted, so it can no longer be changed.';
