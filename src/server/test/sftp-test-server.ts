import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Connection, Server, utils } from 'ssh2';

const { OPEN_MODE, STATUS_CODE } = utils.sftp;

export interface SftpTestServer {
  port: number;
  /** The folder the server's `/` is. */
  root: string;
  /** The host key's fingerprint as `ssh-keygen -lf` prints it: `SHA256:…`. */
  hostKeySha256: string;
  username: string;
  password: string;
  close(): Promise<void>;
}

/**
 * A real SFTP server on a free port of 127.0.0.1, for the feed tests: password sign-in, a host
 * key made for the test, and the requests an upload needs (open for writing, write, close,
 * rename, remove) on files under a new temporary folder.
 */
export async function startSftpTestServer(
  credentials: { username: string; password: string } = {
    username: 'sis-loader',
    password: 'correct horse battery staple',
  },
): Promise<SftpTestServer> {
  const root = mkdtempSync(path.join(tmpdir(), 'portal-sftp-'));
  const keys = utils.generateKeyPairSync('ed25519');
  const parsed = utils.parseKey(keys.public);
  if (parsed instanceof Error) throw parsed;
  const hostKeySha256 = `SHA256:${createHash('sha256').update(parsed.getPublicSSH()).digest('base64').replace(/=+$/, '')}`;

  /** A path the client names, inside the root whatever it says. */
  const local = (remote: string) => path.join(root, path.posix.normalize(`/${remote}`));
  const clients = new Set<Connection>();

  const server = new Server({ hostKeys: [keys.private] }, (client) => {
    clients.add(client);
    client.on('close', () => clients.delete(client));
    client.on('error', () => clients.delete(client));
    client.on('authentication', (context) => {
      if (
        context.method === 'password' &&
        context.username === credentials.username &&
        context.password === credentials.password
      )
        context.accept();
      else context.reject(['password']);
    });
    client.on('ready', () => {
      client.on('session', (acceptSession) => {
        const session = acceptSession();
        session.on('sftp', (acceptSftp) => {
          const sftp = acceptSftp();
          const handles = new Map<number, number>();
          let next = 0;
          const handleOf = (buffer: Buffer) => handles.get(buffer.readUInt32BE(0));
          sftp.on('OPEN', (id, filename, flags) => {
            if (!(flags & OPEN_MODE.WRITE)) return sftp.status(id, STATUS_CODE.OP_UNSUPPORTED);
            try {
              const fd = openSync(local(filename), flags & OPEN_MODE.EXCL ? 'wx' : 'w');
              const handle = Buffer.alloc(4);
              handle.writeUInt32BE(next);
              handles.set(next++, fd);
              sftp.handle(id, handle);
            } catch {
              sftp.status(id, STATUS_CODE.FAILURE);
            }
          });
          sftp.on('WRITE', (id, handle, offset, data) => {
            const fd = handleOf(handle);
            if (fd === undefined) return sftp.status(id, STATUS_CODE.FAILURE);
            writeSync(fd, data, 0, data.length, offset);
            sftp.status(id, STATUS_CODE.OK);
          });
          sftp.on('CLOSE', (id, handle) => {
            const fd = handleOf(handle);
            if (fd === undefined) return sftp.status(id, STATUS_CODE.FAILURE);
            closeSync(fd);
            handles.delete(handle.readUInt32BE(0));
            sftp.status(id, STATUS_CODE.OK);
          });
          sftp.on('RENAME', (id, from, to) => {
            // As OpenSSH's server: SFTP version 3 renames never replace a file.
            if (existsSync(local(to))) return sftp.status(id, STATUS_CODE.FAILURE);
            try {
              renameSync(local(from), local(to));
              sftp.status(id, STATUS_CODE.OK);
            } catch {
              sftp.status(id, STATUS_CODE.FAILURE);
            }
          });
          sftp.on('REMOVE', (id, name) => {
            try {
              unlinkSync(local(name));
              sftp.status(id, STATUS_CODE.OK);
            } catch {
              sftp.status(id, STATUS_CODE.NO_SUCH_FILE);
            }
          });
        });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    root,
    hostKeySha256,
    ...credentials,
    async close() {
      for (const client of clients) client.end();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
