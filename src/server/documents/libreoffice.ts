// DOCX to PDF through LibreOffice (`soffice --headless --convert-to pdf`) when it is installed:
// the most faithful rendering available without Word. Each conversion runs in its own temporary
// folder that is always removed, with a time limit that kills the whole process group.
import { spawn } from 'node:child_process';
import { accessSync, constants, rmSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const LIBREOFFICE_TIMEOUT_MS = 60_000;

let detected: string | null | undefined;

/** The `soffice` (or `libreoffice`) executable on PATH, looked up once per process. */
export function findSoffice(): string | null {
  if (detected !== undefined) return detected;
  detected = null;
  const directories = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const name of ['soffice', 'libreoffice']) {
    for (const directory of directories) {
      const candidate = path.join(directory, name);
      try {
        accessSync(candidate, constants.X_OK);
        detected = candidate;
        return detected;
      } catch {
        // not here; keep looking
      }
    }
  }
  return detected;
}

export class LibreOfficeError extends Error {
  override readonly name = 'LibreOfficeError';
  constructor(
    readonly reason: 'timeout' | 'failed',
    message: string,
  ) {
    super(message);
  }
}

/**
 * One LibreOffice profile per process, used by one conversion at a time: a profile shared by two
 * running instances makes the second wait or fail, and creating a fresh profile per conversion
 * costs seconds.
 */
let profileDir: string | null = null;
let queue: Promise<unknown> = Promise.resolve();

let cleanupRegistered = false;

async function profile(): Promise<string> {
  if (!profileDir) {
    profileDir = path.join(tmpdir(), `portal-soffice-profile-${process.pid}`);
    await mkdir(profileDir, { recursive: true });
    if (!cleanupRegistered) {
      cleanupRegistered = true;
      // The profile is only this process's cache: leave nothing behind in /tmp.
      process.once('exit', () => {
        if (profileDir) rmSync(profileDir, { recursive: true, force: true });
      });
    }
  }
  return profileDir;
}

function run(
  command: string,
  args: string[],
  timeoutMs: number,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    // Its own process group, so a timeout also ends the helpers soffice starts.
    const child = spawn(command, args, {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, SAL_USE_VCLPLUGIN: 'svp' },
    });
    let output = '';
    const collect = (chunk: Buffer) => {
      if (output.length < 4000) output += chunk.toString();
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new LibreOfficeError('failed', error.message));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) reject(new LibreOfficeError('timeout', `soffice ran over ${timeoutMs} ms`));
      else resolve({ code, output });
    });
  });
}

async function convertNow(
  bytes: Uint8Array,
  soffice: string,
  timeoutMs: number,
): Promise<Uint8Array> {
  const work = await mkdtemp(path.join(tmpdir(), 'portal-docx-'));
  try {
    const input = path.join(work, 'document.docx');
    await writeFile(input, bytes);
    const userInstallation = pathToFileURL(await profile()).href;
    let result: { code: number | null; output: string };
    try {
      result = await run(
        soffice,
        [
          `-env:UserInstallation=${userInstallation}`,
          '--headless',
          '--invisible',
          '--nologo',
          '--nodefault',
          '--norestore',
          '--nolockcheck',
          '--convert-to',
          'pdf:writer_pdf_Export',
          '--outdir',
          work,
          input,
        ],
        timeoutMs,
      );
    } catch (error) {
      if (error instanceof LibreOfficeError && error.reason === 'timeout' && profileDir) {
        // A killed instance can leave a locked profile behind: start the next one afresh.
        await rm(profileDir, { recursive: true, force: true });
        profileDir = null;
      }
      throw error;
    }
    const output = path.join(work, 'document.pdf');
    let pdf: Uint8Array;
    try {
      pdf = new Uint8Array(await readFile(output));
    } catch {
      throw new LibreOfficeError(
        'failed',
        `soffice exited ${result.code} without a PDF: ${result.output.trim()}`,
      );
    }
    if (pdf.byteLength === 0) throw new LibreOfficeError('failed', 'soffice wrote an empty PDF');
    return pdf;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Converts with LibreOffice, one conversion at a time per process. */
export function convertWithLibreOffice(
  bytes: Uint8Array,
  soffice: string,
  timeoutMs = LIBREOFFICE_TIMEOUT_MS,
): Promise<Uint8Array> {
  const next = queue.then(() => convertNow(bytes, soffice, timeoutMs));
  // The queue continues whatever this conversion's outcome.
  queue = next.catch(() => undefined);
  return next;
}
