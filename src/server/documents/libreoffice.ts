// DOCX to PDF through LibreOffice (`soffice --headless --convert-to pdf`) when it is installed:
// the most faithful rendering available without Word. Each conversion runs in its own temporary
// folder that is always removed, with a time limit that kills the whole process group. soffice
// runs without network where the system allows it (a network namespace of its own) and with a
// profile that forbids macros, linked pictures and link updates, so a document that still points
// outside itself cannot make the server fetch anything (docs/decisions/020-...).
import { spawn } from 'node:child_process';
import { accessSync, constants, rmSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const LIBREOFFICE_TIMEOUT_MS = 60_000;

let detected: string | null | undefined;

/** The first of `names` that is an executable on PATH. */
function findOnPath(names: readonly string[]): string | null {
  const directories = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const name of names) {
    for (const directory of directories) {
      const candidate = path.join(directory, name);
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here; keep looking
      }
    }
  }
  return null;
}

/** The `soffice` (or `libreoffice`) executable on PATH, looked up once per process. */
export function findSoffice(): string | null {
  if (detected === undefined) detected = findOnPath(['soffice', 'libreoffice']);
  return detected;
}

/**
 * The words to put before a command so it runs in a network namespace of its own, where only a
 * loopback interface exists and it is down. As root `unshare --net` is enough; other users need a
 * user namespace as well (`--map-root-user`). Either is refused in containers without
 * CAP_SYS_ADMIN or where user namespaces are disabled, and then this answers null.
 */
export async function probeNetworkIsolation(
  unshare: string | null,
  isRoot = process.getuid?.() === 0,
): Promise<string[] | null> {
  if (!unshare) return null;
  const candidates = [['--net'], ['--net', '--map-root-user']];
  for (const options of isRoot ? candidates : candidates.slice(1)) {
    try {
      const { code } = await run(unshare, [...options, 'true'], PROBE_TIMEOUT_MS);
      if (code === 0) return [unshare, ...options];
    } catch {
      // refused or hung: try the next way, or run soffice as it is
    }
  }
  return null;
}

const PROBE_TIMEOUT_MS = 5_000;

export const NO_NETWORK_ISOLATION_WARNING =
  'LibreOffice runs with network access: unshare cannot create a network namespace here ' +
  '(no CAP_SYS_ADMIN, or user namespaces are disabled). Documents are still stripped of ' +
  'external references; run the job workers without network as the README describes.';

/**
 * A function answering, once per process, the prefix that isolates soffice from the network
 * ([] where the system refuses), and warning once when it runs with network.
 */
export function networkIsolationOnce(
  unshare: string | null,
  warn: (message: string) => void,
): () => Promise<string[]> {
  let answer: Promise<string[]> | undefined;
  return () => {
    answer ??= probeNetworkIsolation(unshare).then((prefix) => {
      if (!prefix) warn(NO_NETWORK_ISOLATION_WARNING);
      return prefix ?? [];
    });
    return answer;
  };
}

/** This process's answer, looked up at the first conversion. */
export const networkIsolation = networkIsolationOnce(findOnPath(['unshare']), (message) =>
  process.emitWarning(message, { code: 'PORTAL_SOFFICE_NETWORK' }),
);

/**
 * Settings of the conversion profile (names and values from LibreOffice's officecfg schema):
 * macros never run (security level 3, "very high", and execution disabled), pictures linked from
 * documents outside trusted locations are not loaded (BlockUntrustedRefererLinks), and links are
 * never updated on load (Writer: 0 = never; Calc, for embedded sheets: 1 = never).
 */
export const PROFILE_SETTINGS: ReadonlyArray<readonly [string, string, string]> = [
  ['/org.openoffice.Office.Common/Security/Scripting', 'MacroSecurityLevel', '3'],
  ['/org.openoffice.Office.Common/Security/Scripting', 'DisableMacrosExecution', 'true'],
  ['/org.openoffice.Office.Common/Security/Scripting', 'BlockUntrustedRefererLinks', 'true'],
  ['/org.openoffice.Office.Writer/Content/Update', 'Link', '0'],
  ['/org.openoffice.Office.Calc/Content/Update', 'Link', '1'],
];

export const PROFILE_REGISTRY = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
${PROFILE_SETTINGS.map(
  ([item, name, value]) =>
    `<item oor:path="${item}"><prop oor:name="${name}" oor:op="fuse"><value>${value}</value></prop></item>`,
).join('\n')}
</oor:items>
`;

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
    // LibreOffice keeps these settings and adds its own to the file on exit.
    await mkdir(path.join(profileDir, 'user'), { recursive: true });
    await writeFile(path.join(profileDir, 'user', 'registrymodifications.xcu'), PROFILE_REGISTRY);
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
  isolation: () => Promise<string[]>,
): Promise<Uint8Array> {
  const work = await mkdtemp(path.join(tmpdir(), 'portal-docx-'));
  try {
    const input = path.join(work, 'document.docx');
    await writeFile(input, bytes);
    const userInstallation = pathToFileURL(await profile()).href;
    // With isolation the command is `unshare ... soffice ...`; without it, soffice itself.
    const [command = soffice, ...args] = [
      ...(await isolation()),
      soffice,
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
    ];
    let result: { code: number | null; output: string };
    try {
      result = await run(command, args, timeoutMs);
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

/**
 * Converts with LibreOffice, one conversion at a time per process. `isolation` gives the command
 * prefix that takes the network away (tests pass their own).
 */
export function convertWithLibreOffice(
  bytes: Uint8Array,
  soffice: string,
  timeoutMs = LIBREOFFICE_TIMEOUT_MS,
  isolation: () => Promise<string[]> = networkIsolation,
): Promise<Uint8Array> {
  const next = queue.then(() => convertNow(bytes, soffice, timeoutMs, isolation));
  // The queue continues whatever this conversion's outcome.
  queue = next.catch(() => undefined);
  return next;
}
