/** Replies of the account calls (spec 000 section 7 leaves most bodies open; these are ours). */
export interface MessageReply {
  message: string;
}

/** The `code` of a log-in refused because the account is not confirmed: the screen offers resend. */
export const NOT_CONFIRMED_CODE = 'ACCOUNT_NOT_CONFIRMED';
