/** An error whose message is written for the person using the app, with the status to answer. */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: Record<string, string[]>,
    readonly headers?: Record<string, string>,
    readonly code?: string,
  ) {
    super(message);
  }
}
