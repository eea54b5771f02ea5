import path from 'node:path';
import { z } from 'zod';
import { describeConfigIssues } from '../../shared/tenant/tenant-config';
import { projectRoot } from './project-root';

function booleanFlag(fallback: boolean) {
  return z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default(fallback ? 'true' : 'false')
    .transform((value) => value === 'true');
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().default('0.0.0.0'),
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
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(10 * 1024 * 1024)
    .default(512 * 1024),
});

export type Env = z.infer<typeof envSchema>;

const productionRules = (env: Env): string[] => {
  if (env.NODE_ENV !== 'production') return [];
  const problems: string[] = [];
  // Mail links built from the Host header could be pointed at another site by whoever sends it.
  if (!env.PUBLIC_URL)
    problems.push('PUBLIC_URL: is required in production (links in mail start with it)');
  return problems;
};

const S3_SETTINGS = [
  'S3_REGION',
  'S3_ENDPOINT',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
] as const;

const storageAndJobRules = (env: Env): string[] => {
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
  return result.data;
}
