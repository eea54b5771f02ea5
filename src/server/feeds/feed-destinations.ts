import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Client, type SFTPWrapper } from 'ssh2';
import type { FeedDestination } from '../../shared/integration/feed-mapping';
import type { Env } from '../config/env';

/** A destination that could not take the file, said so an operator knows what to fix. */
export class FeedDestinationError extends Error {
  override name = 'FeedDestinationError';
}

export type S3Settings = Pick<
  Env,
  | 'S3_BUCKET'
  | 'S3_REGION'
  | 'S3_ENDPOINT'
  | 'S3_ACCESS_KEY_ID'
  | 'S3_SECRET_ACCESS_KEY'
  | 'S3_FORCE_PATH_STYLE'
>;

export interface DestinationContext {
  s3: S3Settings;
  /** The value of an environment variable a mapping names (a password). */
  secret(name: string): string | undefined;
}

const temporaryName = (fileName: string) =>
  `.${fileName}.${randomBytes(6).toString('hex')}.partial`;

/** Written beside its final name and renamed, so a reader of the folder never sees half a file. */
async function writeToFolder(folder: string, fileName: string, bytes: Buffer): Promise<void> {
  await mkdir(folder, { recursive: true });
  const partial = path.join(folder, temporaryName(fileName));
  try {
    await writeFile(partial, bytes, { flag: 'wx' });
    await rename(partial, path.join(folder, fileName));
  } catch (error) {
    await rm(partial, { force: true });
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new FeedDestinationError(`Cannot write ${fileName} into the folder ${folder}: ${code}.`);
  }
}

async function writeToS3(
  settings: S3Settings,
  prefix: string,
  fileName: string,
  bytes: Buffer,
): Promise<void> {
  const { S3_BUCKET: bucket, S3_REGION: region } = settings;
  if (!bucket || !region || !settings.S3_ACCESS_KEY_ID || !settings.S3_SECRET_ACCESS_KEY)
    throw new FeedDestinationError(
      'The feed writes to S3, but this server has no bucket: set S3_BUCKET and its S3_* settings.',
    );
  const client = new S3Client({
    region,
    endpoint: settings.S3_ENDPOINT,
    forcePathStyle: settings.S3_FORCE_PATH_STYLE,
    credentials: {
      accessKeyId: settings.S3_ACCESS_KEY_ID,
      secretAccessKey: settings.S3_SECRET_ACCESS_KEY,
    },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const key = prefix ? `${prefix.replace(/\/+$/, '')}/${fileName}` : fileName;
  try {
    await client.send(
      new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes, ContentType: 'text/plain' }),
    );
  } catch (error) {
    throw new FeedDestinationError(
      `Cannot write ${key} to the S3 bucket ${bucket}: ${(error as Error).message}`,
    );
  } finally {
    client.destroy();
  }
}

/** `SHA256:abc…` as `ssh-keygen -lf` prints it, without the prefix and padding. */
export function hostKeyFingerprint(key: Buffer): string {
  return createHash('sha256').update(key).digest('base64').replace(/=+$/, '');
}

const bareFingerprint = (text: string) => text.replace(/^SHA256:/, '').replace(/=+$/, '');

const SFTP_READY_TIMEOUT_MS = 20_000;

function sftpCall(run: (done: (error?: Error | null) => void) => void): Promise<void> {
  return new Promise((resolve, reject) => run((error) => (error ? reject(error) : resolve())));
}

/**
 * Uploads under a temporary name and renames, so the SIS never loads half a file. The server is
 * trusted only when its host key has the pinned fingerprint; the secret comes from the
 * environment variable the mapping names.
 */
async function writeToSftp(
  destination: Extract<FeedDestination, { type: 'sftp' }>,
  context: DestinationContext,
  fileName: string,
  bytes: Buffer,
): Promise<void> {
  const where = `${destination.host}:${destination.port}`;
  let password: string | undefined;
  let privateKey: Buffer | undefined;
  if (destination.password_env) {
    password = context.secret(destination.password_env);
    if (!password)
      throw new FeedDestinationError(
        `The SFTP password is read from ${destination.password_env}, which is not set.`,
      );
  } else if (destination.private_key_file) {
    try {
      privateKey = await readFile(destination.private_key_file);
    } catch (error) {
      throw new FeedDestinationError(
        `Cannot read the SFTP private key ${destination.private_key_file}: ${(error as NodeJS.ErrnoException).code ?? error}.`,
      );
    }
  }
  const pinned = bareFingerprint(destination.host_key_sha256);
  let offered: string | null = null;
  const client = new Client();
  const sftp = await new Promise<SFTPWrapper>((resolve, reject) => {
    client.on('ready', () => {
      client.sftp((error, session) => (error ? reject(error) : resolve(session)));
    });
    client.on('error', (error: Error & { level?: string; code?: string }) => {
      if (offered !== null && offered !== pinned) {
        reject(
          new FeedDestinationError(
            `The SFTP server at ${where} offered the host key SHA256:${offered}, not the pinned ${destination.host_key_sha256}: nothing was sent. If the server's key was changed on purpose, pin the new fingerprint.`,
          ),
        );
      } else if (error.level === 'client-authentication') {
        reject(
          new FeedDestinationError(
            `The SFTP server at ${where} refused the ${password ? 'password' : 'key'} of ${destination.username}.`,
          ),
        );
      } else {
        reject(
          new FeedDestinationError(
            `Cannot connect to the SFTP server at ${where}: ${error.code ?? error.message}.`,
          ),
        );
      }
    });
    client.connect({
      host: destination.host,
      port: destination.port,
      username: destination.username,
      ...(password ? { password } : {}),
      ...(privateKey ? { privateKey } : {}),
      readyTimeout: SFTP_READY_TIMEOUT_MS,
      hostVerifier: (key: Buffer) => {
        offered = hostKeyFingerprint(key);
        return offered === pinned;
      },
    });
  });
  const folder = destination.path.replace(/\/+$/, '') || '/';
  const target = path.posix.join(folder, fileName);
  const partial = path.posix.join(folder, temporaryName(fileName));
  try {
    await sftpCall((done) => sftp.writeFile(partial, bytes, done));
    try {
      await sftpCall((done) => sftp.rename(partial, target, done));
    } catch {
      // SFTP's rename refuses an existing name (a re-run on the same day): replace it.
      await sftpCall((done) => sftp.unlink(target, done));
      await sftpCall((done) => sftp.rename(partial, target, done));
    }
  } catch (error) {
    await sftpCall((done) => sftp.unlink(partial, done)).catch(() => undefined);
    throw new FeedDestinationError(
      `Cannot write ${target} on the SFTP server at ${where}: ${(error as Error).message}.`,
    );
  } finally {
    client.end();
  }
}

/** Writes one feed file where its mapping says. */
export async function writeFeedFile(
  destination: FeedDestination,
  context: DestinationContext,
  fileName: string,
  bytes: Buffer,
): Promise<void> {
  switch (destination.type) {
    case 'folder':
      return writeToFolder(destination.path, fileName, bytes);
    case 's3':
      return writeToS3(context.s3, destination.prefix, fileName, bytes);
    case 'sftp':
      return writeToSftp(destination, context, fileName, bytes);
  }
}
