/*
 * What an export reads from the list's query is the list's selection
 * (applications-list/application-selection.ts); an export adds only the limit on what it is sent.
 */
export {
  type ApplicationSelection as ExportQuery,
  parseApplicationSelection as parseExportQuery,
  type RawQuery,
  rawQueryOf,
  SELECTION_NOT_LIST_PARAMETER_MESSAGE as EXPORT_NOT_LIST_PARAMETER_MESSAGE,
} from '../applications-list/application-selection';

export const EXPORT_QUERY_MESSAGE = 'Send the list’s query string, up to 2,000 characters.';
export const EXPORT_QUERY_MAX_LENGTH = 2000;
