import path from 'node:path';
import { z } from 'zod';
import { describeConfigIssues } from '../../shared/tenant/tenant-config';
import { parseNetwork } from './networks';
import { projectRoot } from './project-root';

function booleanFlag(fallback: boolean) {
  return z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default(fallback ? 'true' : 'false')
    .transform((value) => value === 'true');
}

function commaList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  /** Unset: every interface in production, this machine only otherwise (see resolveHost). */
  HOST: z.string().optional(),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, context) => parseTrustProxy(value, context)),
  DEV_TOOLS_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  DATA_DIR: z.string().default('./data'),
  WEB_ROOT: z.string().default(path.join(projectRoot, 'dist', 'web')),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  TENANT_CONFIG: z.string().default(path.join(projectRoot, 'tenant', 'sample-tenant.json')),
  PUBLIC_URL: z.url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().default('Admissions <no-reply@localhost>'),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(15),
  UPLOAD_SIGNING_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().optional(),
  S3_ENDPOINT: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: booleanFlag(false),
  RUN_JOBS: booleanFlag(true),
  /** False: a fresh server's lookup table stays empty until the institution imports its lists. */
  LOOKUP_DEFAULT_LISTS: booleanFlag(true),
  /** Unset: GET /metrics does not exist. Set: the bearer token the metrics scraper sends. */
  METRICS_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(10 * 1024 * 1024)
    .default(512 * 1024),
  STAFF_SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(120).default(30),
  /** The university's OpenID Connect provider; all three set, or none (single sign-on off). */
  OIDC_ISSUER: z.url({ protocol: /^https?$/, error: 'must be an https:// URL' }).optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  /** The ID token or userinfo claim that carries the member's groups or roles. */
  OIDC_ROLE_CLAIM: z.string().default('groups'),
  /** Claim values (comma-separated) that make a member an admin, or a reader. */
  OIDC_ADMIN_VALUES: z.string().optional().transform(commaList),
  OIDC_EVALUATOR_VALUES: z.string().optional().transform(commaList),
  OIDC_READER_VALUES: z.string().optional().transform(commaList),
  /** The sign-in button's words, e.g. "Sign in with Example University". */
  OIDC_LABEL: z.string().max(80).default('Sign in with your university account'),
  /** Unset: no scheduled deletion. Days an unsubmitted application may stay unchanged. */
  RETENTION_UNSUBMITTED_DAYS: z.coerce.number().int().min(1).max(3650).optional(),
  /** Unset: no scheduled deletion. Days applications are kept after their entry term started. */
  RETENTION_CLOSED_CYCLE_DAYS: z.coerce.number().int().min(1).max(3650).optional(),
  /** The audit chain's HMAC key; required in production, a file under DATA_DIR otherwise. */
  AUDIT_CHAIN_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Retired chain keys (comma-separated): entries and checkpoints they signed still verify. */
  AUDIT_CHAIN_OLD_KEYS: z
    .string()
    .optional()
    .transform(commaList)
    .pipe(z.array(z.string().min(32, 'each key must be at least 32 characters'))),
  /** Unset: DATA_DIR/audit-checkpoints. Where checkpoints of the chain's head are appended. */
  AUDIT_CHECKPOINT_DIR: z.string().optional(),
  AUDIT_CHECKPOINT_MINUTES: z.coerce.number().int().min(1).max(1440).default(60),
  /**
   * Unset: no scheduled feeds. A folder of feed mapping files (`*.json`, docs/integration.md):
   * each is checked at start, and servers with RUN_JOBS run those with a `schedule` when due.
   */
  FEEDS_DIR: z.string().optional(),
  /**
   * Unset: production webhooks reach public https:// addresses only. Networks (comma-separated
   * CIDRs, IPv4 or IPv6, e.g. the campus network of the SIS integration server) webhooks may
   * also reach in production, over http:// too; nothing else that is not public.
   */
  WEBHOOK_PRIVATE_NETWORKS: z
    .string()
    .optional()
    .transform(commaList)
    .superRefine((entries, context) => {
      const invalid = entries.filter((entry) => parseNetwork(entry) === null);
      if (invalid.length > 0)
        context.addIssue({
          code: 'custom',
          message: `not a network in CIDR form (e.g. 10.20.0.0/16 or fd00:1::/64): ${invalid.join(', ')}`,
        });
    }),
});

export type Env = Omit<z.infer<typeof envSchema>, 'HOST'> & { HOST: string };

/** Proxy-addr's names for the private ranges, which Fastify accepts beside addresses. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  return NAMED_RANGES.has(entry) || parseNetwork(entry) !== null;
}

/**
 * Which proxies may tell the client's address through X-Forwarded-For: none (the default), the
 * nearest N hops, or the listed addresses and ranges. Trusting every hop would let any client
 * choose the address that the per-address limits count, so `true` is refused.
 */
function parseTrustProxy(
  value: string | undefined,
  context: z.RefinementCtx,
): false | number | string[] {
  if (value === undefined || value === 'false') return false;
  const refuse = (message: string) => {
    context.addIssue({ code: 'custom', message });
    return z.NEVER;
  };
  if (value === 'true')
    return refuse(
      'trusting every proxy lets clients choose their address; give a hop count or addresses',
    );
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops >= 1 && hops <= 10 ? hops : refuse('a hop count must be from 1 to 10');
  }
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const invalid = entries.filter((entry) => !isAddressOrRange(entry));
  if (entries.length === 0 || invalid.length > 0)
    return refuse(`not an address, CIDR range or hop count: ${invalid.join(', ') || value}`);
  return entries;
}

const productionRules = (env: z.infer<typeof envSchema>): string[] => {
  if (env.NODE_ENV !== 'production') return [];
  const problems: string[] = [];
  // Mail links built from the Host header could be pointed at another site by whoever sends it.
  if (!env.PUBLIC_URL)
    problems.push('PUBLIC_URL: is required in production (links in mail start with it)');
  // Tokens and codes cross this connection: an identity provider is reached over TLS only.
  if (env.OIDC_ISSUER && !env.OIDC_ISSUER.startsWith('https://'))
    problems.push('OIDC_ISSUER: must be an https:// URL in production');
  if (env.DEV_TOOLS_KEY)
    problems.push('DEV_TOOLS_KEY: the development outbox does not exist in production; unset it');
  // A key kept beside the database would be copied, and could be read, with it.
  if (!env.AUDIT_CHAIN_KEY)
    problems.push('AUDIT_CHAIN_KEY: is required in production (it signs the audit trail)');
  return problems;
};

const S3_SETTINGS = [
  'S3_REGION',
  'S3_ENDPOINT',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
] as const;

const storageAndJobRules = (env: z.infer<typeof envSchema>): string[] => {
  const problems: string[] = [];
  if (env.S3_BUCKET) {
    for (const name of ['S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
      if (!env[name]) problems.push(`${name}: is required when S3_BUCKET is set`);
    }
  } else {
    for (const name of S3_SETTINGS) {
      if (env[name]) problems.push(`${name}: is set but S3_BUCKET is not (files stay on disk)`);
    }
  }
  const oidc = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const;
  if (oidc.some((name) => env[name]) && !oidc.every((name) => env[name])) {
    problems.push(`OIDC: set all of ${oidc.join(', ')} for single sign-on, or none of them`);
  }
  // On the embedded database no other process can run the jobs this one would leave.
  if (!env.RUN_JOBS && !env.DATABASE_URL)
    problems.push('RUN_JOBS: can only be false with DATABASE_URL (PostgreSQL)');
  return problems;
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const result = envSchema.safeParse(present);
  if (!result.success) {
    throw new ConfigError(
      `Invalid environment:\n  ${describeConfigIssues(result.error).join('\n  ')}`,
    );
  }
  const problems = [...storageAndJobRules(result.data), ...productionRules(result.data)];
  if (problems.length > 0)
    throw new ConfigError(`Invalid environment:\n  ${problems.join('\n  ')}`);
  return { ...result.data, HOST: result.data.HOST ?? defaultHost(result.data.NODE_ENV) };
}

/**
 * A server started without NODE_ENV=production answers this machine only: a forgotten setting
 * must not put a development server, with its outbox, on the network.
 */
function defaultHost(mode: Env['NODE_ENV']): string {
  return mode === 'production' ? '0.0.0.0' : '127.0.0.1';
}
