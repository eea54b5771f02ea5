import { Cron } from 'croner';
import { z } from 'zod';
import { timeZoneSchema } from '../decisions/decision-config';
import { answerKeySpecs } from '../form/answer-keys';
import { DESC_SUFFIX, type FormModel } from '../form/model';

/*
 * A feed's mapping file: which applications go to the student information system, in which
 * columns and formats, with which value translations, when and where to. The office keeps it as
 * JSON; everything it says is checked before a feed runs, and every problem is named by its path.
 */

/** Sources that need no key. */
export const FEED_FIXED_SOURCES = [
  'application_id',
  'receipt_number',
  'email',
  'submitted_at',
  'sis_id',
  'decision_code',
  'decision_released_at',
  'reply',
  'replied_at',
  'transfer_gpa',
  'transfer_units',
  'in_progress_units',
  'checklist_missing',
] as const;
export type FeedFixedSource = (typeof FEED_FIXED_SOURCES)[number];

/**
 * Sources with a key after the colon: an answer's stored value (a choice's code), a choice's
 * label, one checklist item's state, or a constant text written on every row.
 */
export const FEED_KEYED_SOURCES = ['answer', 'label', 'checklist', 'const'] as const;
export type FeedKeyedSource = (typeof FEED_KEYED_SOURCES)[number];

export type FeedSource =
  | { kind: 'fixed'; name: FeedFixedSource }
  | { kind: FeedKeyedSource; key: string };

export function parseSource(text: string): FeedSource | null {
  if ((FEED_FIXED_SOURCES as readonly string[]).includes(text))
    return { kind: 'fixed', name: text as FeedFixedSource };
  const colon = text.indexOf(':');
  if (colon < 1) return null;
  const kind = text.slice(0, colon);
  const key = text.slice(colon + 1);
  if (!(FEED_KEYED_SOURCES as readonly string[]).includes(kind)) return null;
  if (kind !== 'const' && !/^[A-Za-z0-9_-]{1,100}$/.test(key)) return null;
  return { kind: kind as FeedKeyedSource, key };
}

/** The tokens a date format may hold; anything else in the pattern is written as it is. */
const DATE_TOKENS = /YYYY|MM|DD|HH|mm|ss/g;
const HAS_DATE_TOKEN = /YYYY|MM|DD|HH|mm|ss/;

/**
 * What a column's `format` does, as data: `upper`, `lower`, `trim`, `digits` (only 0-9 kept),
 * `yes_no` (true/false as Y/N), `fixed:N` (a number with N decimals), `date:PATTERN` (a date or
 * time in the feed's time zone, PATTERN of YYYY MM DD HH mm ss and separators).
 */
export type FeedFormat =
  | { kind: 'upper' | 'lower' | 'trim' | 'digits' | 'yes_no' }
  | { kind: 'fixed'; decimals: number }
  | { kind: 'date'; pattern: string };

export function parseFormat(text: string): FeedFormat | null {
  if (['upper', 'lower', 'trim', 'digits', 'yes_no'].includes(text))
    return { kind: text as 'upper' | 'lower' | 'trim' | 'digits' | 'yes_no' };
  const fixed = /^fixed:(\d)$/.exec(text);
  if (fixed) return { kind: 'fixed', decimals: Number(fixed[1]) };
  const date = /^date:(.{1,40})$/.exec(text);
  if (date?.[1] && HAS_DATE_TOKEN.test(date[1])) return { kind: 'date', pattern: date[1] };
  return null;
}

/** The parts of an instant as a clock in `timeZone` shows them. */
function zonedParts(instant: Date, timeZone: string): Record<string, string> {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(instant);
  const of = (type: string) => parts.find((part) => part.type === type)?.value ?? '00';
  return {
    YYYY: of('year'),
    MM: of('month'),
    DD: of('day'),
    HH: of('hour'),
    mm: of('minute'),
    ss: of('second'),
  };
}

/** A stored date (`YYYY-MM-DD`, a date answer) has no time zone; an instant is read in the feed's. */
function dateParts(value: string, timeZone: string): Record<string, string> | null {
  const plain = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (plain) {
    const [, year = '', month = '', day = ''] = plain;
    return { YYYY: year, MM: month, DD: day, HH: '00', mm: '00', ss: '00' };
  }
  const instant = new Date(value);
  return Number.isNaN(instant.getTime()) ? null : zonedParts(instant, timeZone);
}

/** `{date}` `{time}` in a file name, in the feed's time zone. */
export function fileStamp(instant: Date, timeZone: string): { date: string; time: string } {
  const parts = zonedParts(instant, timeZone);
  return { date: `${parts.YYYY}${parts.MM}${parts.DD}`, time: `${parts.HH}${parts.mm}${parts.ss}` };
}

/**
 * One value through one format; null when the value cannot take it (not a date, not a number),
 * which the row builder reports beside the column.
 */
export function formatValue(value: string, format: FeedFormat, timeZone: string): string | null {
  if (value === '') return '';
  switch (format.kind) {
    case 'upper':
      return value.toUpperCase();
    case 'lower':
      return value.toLowerCase();
    case 'trim':
      return value.trim();
    case 'digits':
      return value.replace(/\D/g, '');
    case 'yes_no':
      if (value === 'true') return 'Y';
      if (value === 'false') return 'N';
      return value;
    case 'fixed': {
      const number = Number(value);
      return Number.isFinite(number) ? number.toFixed(format.decimals) : null;
    }
    case 'date': {
      const parts = dateParts(value, timeZone);
      return parts ? format.pattern.replace(DATE_TOKENS, (token) => parts[token] ?? token) : null;
    }
  }
}

const cronSchema = z.string().superRefine((pattern, context) => {
  try {
    new Cron(pattern, { paused: true });
  } catch (error) {
    context.addIssue({
      code: 'custom',
      message: `is not a cron schedule (${error instanceof Error ? error.message : String(error)})`,
    });
  }
});

const sourceSchema = z.string().refine((text) => parseSource(text) !== null, {
  message: `must be one of ${FEED_FIXED_SOURCES.join(', ')}, or ${FEED_KEYED_SOURCES.map((kind) => `${kind}:<key>`).join(', ')}`,
});

const formatSchema = z.string().refine((text) => parseFormat(text) !== null, {
  message:
    'must be upper, lower, trim, digits, yes_no, fixed:N (N decimals, 0-9) or date:PATTERN (of YYYY MM DD HH mm ss)',
});

const columnSchema = z.strictObject({
  header: z.string().min(1, 'is required').max(100),
  source: sourceSchema,
  /** One format or several, applied in order after `map`. */
  format: z.union([formatSchema, z.array(formatSchema).min(1)]).optional(),
  /** Stored value (before formats) to the value written. */
  map: z.record(z.string(), z.string()).optional(),
  /** What a non-empty value the map does not name does: refuse the run, write nothing, or write it as it is. */
  unmapped: z.enum(['error', 'blank', 'keep']).default('error'),
  /** Written when the value comes out empty. */
  default: z.string().optional(),
  max_length: z.number().int().min(1).max(10_000).optional(),
  /** Cut a longer value to max_length instead of reporting it. */
  truncate: z.boolean().default(false),
  /** Fixed width: padded on one side to `length` with `char`. */
  pad: z
    .strictObject({
      length: z.number().int().min(1).max(10_000),
      char: z.string().length(1).default(' '),
      side: z.enum(['left', 'right']).default('right'),
    })
    .optional(),
});
export type FeedColumn = z.infer<typeof columnSchema>;

const FEED_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** A remote path: no parent steps, no control characters. */
const remotePath = z
  .string()
  .min(1, 'is required')
  .max(500)
  .refine(
    (value) =>
      !value.split('/').includes('..') && ![...value].some((char) => char.charCodeAt(0) < 0x20),
    {
      message: 'must not contain .. or control characters',
    },
  );

const destinationSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('folder'), path: z.string().min(1, 'is required') }),
  z.strictObject({
    type: z.literal('s3'),
    prefix: z
      .string()
      .max(300)
      .regex(/^[A-Za-z0-9!_.*'()/-]*$/, "must be letters, digits and !_.*'()/- only")
      .default(''),
  }),
  z
    .strictObject({
      type: z.literal('sftp'),
      host: z.string().min(1, 'is required').max(255),
      port: z.number().int().min(1).max(65_535).default(22),
      username: z.string().min(1, 'is required').max(100),
      /** The environment variable holding the password: the secret itself never sits in the file. */
      password_env: z
        .string()
        .regex(
          /^[A-Z_][A-Z0-9_]*$/,
          'must be an environment variable name such as SIS_SFTP_PASSWORD',
        )
        .optional(),
      private_key_file: z.string().min(1).optional(),
      /** The folder on the server the file is written into. */
      path: remotePath,
      /** The server's host key fingerprint, as `ssh-keygen -lf` prints it (SHA256:…). */
      host_key_sha256: z
        .string()
        .regex(
          /^(SHA256:)?[A-Za-z0-9+/]{43}=?$/,
          'must be the SHA-256 fingerprint of the host key, such as SHA256:abc… (ssh-keygen -lf)',
        ),
    })
    .superRefine((value, context) => {
      if ((value.password_env === undefined) === (value.private_key_file === undefined))
        context.addIssue({
          code: 'custom',
          message: 'give exactly one of password_env and private_key_file',
          path: [],
        });
    }),
]);
export type FeedDestination = z.infer<typeof destinationSchema>;

const filtersSchema = z.strictObject({
  /** Stored values of entry_term. */
  entry_terms: z.array(z.string().min(1)).min(1).optional(),
  /** Stored values of applied_major. */
  programs: z.array(z.string().min(1)).min(1).optional(),
  decision_codes: z.array(z.string().min(1)).min(1).optional(),
  /** true: only applications whose decision is released; false: only those without one released. */
  decision_released: z.boolean().optional(),
  /** Only these replies to an offer; `none` for no reply yet. */
  replies: z
    .array(z.enum(['accepted', 'declined', 'none']))
    .min(1)
    .optional(),
});
export type FeedFilters = z.infer<typeof filtersSchema>;

export const feedMappingSchema = z.strictObject({
  name: z
    .string()
    .regex(FEED_NAME, 'must be 1 to 63 of a-z, 0-9, _ and -, starting with a letter or digit'),
  description: z.string().max(500).default(''),
  schedule: cronSchema.optional(),
  timezone: timeZoneSchema.default('UTC'),
  select: z.enum(['all', 'changed']),
  filters: filtersSchema.default({}),
  file: z.strictObject({
    /** `{date}` (YYYYMMDD), `{time}` (HHmmss) and `{run}` (the run's id) are filled in. */
    name: z
      .string()
      .min(1, 'is required')
      .max(200)
      .regex(/^[A-Za-z0-9._{}-]+$/, 'must be letters, digits, . _ - and {date} {time} {run} only')
      .refine(
        (name) =>
          (name.match(/\{[^}]*\}/g) ?? []).every((part) =>
            ['{date}', '{time}', '{run}'].includes(part),
          ),
        {
          message: 'may hold only {date}, {time} and {run}',
        },
      ),
    delimiter: z.enum(['comma', 'tab', 'pipe']).default('comma'),
    header: z.boolean().default(true),
    line_ending: z.enum(['CRLF', 'LF']).default('CRLF'),
    /** minimal: quote a field that needs it; all: every field; none: a field that would need it is a problem. */
    quoting: z.enum(['minimal', 'all', 'none']).default('minimal'),
  }),
  destination: destinationSchema,
  columns: z.array(columnSchema).min(1, 'needs at least one column').max(500),
});
export type FeedMapping = z.infer<typeof feedMappingSchema>;

/** A path as the office reads it in its file: `columns[2].format`. */
export function pathText(path: readonly PropertyKey[]): string {
  let text = '';
  for (const part of path) {
    if (typeof part === 'number') text += `[${part}]`;
    else text += text ? `.${String(part)}` : String(part);
  }
  return text;
}

function issueTexts(error: z.ZodError): string[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((key) => `${pathText([...issue.path, key])} is not a known key`);
    const where = pathText(issue.path);
    return [`${where || '(the file)'}: ${issue.message}`];
  });
}

/** Answer keys the model may hold, and those that store a label beside them. */
function modelKeyProblems(mapping: FeedMapping, model: FormModel): string[] {
  const specs = answerKeySpecs(model);
  const problems: string[] = [];
  mapping.columns.forEach((column, index) => {
    const source = parseSource(column.source);
    if (!source || (source.kind !== 'answer' && source.kind !== 'label')) return;
    if (!specs.has(source.key))
      problems.push(`columns[${index}].source: ${source.key} is not a question of the application`);
    else if (source.kind === 'label' && !specs.has(`${source.key}${DESC_SUFFIX}`))
      problems.push(
        `columns[${index}].source: ${source.key} has no option labels (use answer:${source.key})`,
      );
  });
  return problems;
}

export type FeedMappingResult =
  | { ok: true; mapping: FeedMapping }
  | { ok: false; problems: string[] };

/** Reads a mapping file's text: every problem, each with its path, or the mapping. */
export function parseFeedMapping(text: string, model: FormModel): FeedMappingResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      problems: [`not JSON: ${error instanceof Error ? error.message : String(error)}`],
    };
  }
  const parsed = feedMappingSchema.safeParse(json);
  if (!parsed.success) return { ok: false, problems: issueTexts(parsed.error) };
  const problems = modelKeyProblems(parsed.data, model);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, mapping: parsed.data };
}

/** The columns' formats as data, in order. */
export function columnFormats(column: FeedColumn): FeedFormat[] {
  const list =
    column.format === undefined
      ? []
      : Array.isArray(column.format)
        ? column.format
        : [column.format];
  return list.flatMap((text) => {
    const format = parseFormat(text);
    return format ? [format] : [];
  });
}

export const DELIMITERS: Record<FeedMapping['file']['delimiter'], string> = {
  comma: ',',
  tab: '\t',
  pipe: '|',
};

/** Where a run writes, said without any secret: for the runs' list and the audit trail. */
export function destinationText(destination: FeedDestination): string {
  switch (destination.type) {
    case 'folder':
      return `folder ${destination.path}`;
    case 's3':
      return `s3 ${destination.prefix || '(bucket root)'}`;
    case 'sftp':
      return `sftp ${destination.username}@${destination.host}:${destination.port}${destination.path.startsWith('/') ? '' : '/'}${destination.path}`;
  }
}
