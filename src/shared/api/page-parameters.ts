/**
 * The page query parameters of spec 000 section 2, apart from their schemas so the browser's first
 * load can look for them without shipping a validator.
 */

/** A staff link: any form route then shows the service user's read-only view. */
export const SERVICE_TOKEN_PARAM = 'service_token';

/** A prefilled answer set to load into the visitor's answers. */
export const TEMPORARY_ANSWERS_PARAM = 'token';
