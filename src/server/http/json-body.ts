import type { FastifyInstance } from 'fastify';
import { HttpError } from './http-error';

/**
 * The deepest nesting of arrays and objects a request body may have. The deepest body any route
 * takes is a few levels (a saved list view's filters, a validation report's messages); the bound
 * is far above that and far below what would exhaust the stack of code that walks a body.
 */
export const MAX_JSON_DEPTH = 32;

export const NESTED_TOO_DEEPLY_MESSAGE = `The request body is nested too deeply: send at most ${MAX_JSON_DEPTH} levels of arrays and objects.`;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether JSON text opens more than `max` arrays and objects inside one another. Brackets inside
 * strings do not count. It reads no further than the bracket that goes too deep, so a hostile body
 * costs as little as a short one; text that is not JSON is left for the parser to refuse.
 */
export function jsonNestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      depth++;
      if (depth > max) return true;
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}

/**
 * The one JSON body parser of every route.
 *
 * Spec 000 section 7: the browser sends `Content-Type: application/json` with every call, also
 * with those that carry no payload (submit, keep-alive, deletes). Fastify refuses an empty JSON
 * body, so here a route that declares no body schema receives an empty one as no body, while a
 * route that declares one still hears that its body is missing.
 *
 * A body nested deeper than {@link MAX_JSON_DEPTH} is refused before it is parsed, so nothing
 * after the parser (the text check, the schemas, the handlers) ever walks one.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser(
    app.initialConfig.onProtoPoisoning ?? 'error',
    app.initialConfig.onConstructorPoisoning ?? 'error',
  );
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (request, body: string, done) => {
      if (body === '' && request.routeOptions.schema?.body === undefined) {
        done(null, undefined);
        return;
      }
      if (jsonNestsDeeperThan(body, MAX_JSON_DEPTH)) {
        done(new HttpError(400, NESTED_TOO_DEEPLY_MESSAGE), undefined);
        return;
      }
      parseJson(request, body, done);
    },
  );
}
