import { mkdtempSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadEnv } from '../config/env';
import { auditKeyId, auditKeyring, auditKeysFromEnv, developmentKeyFile } from './audit-keys';

const KEY = 'audit-keys-test-key-0123456789abcdef';
const OLD = 'audit-keys-old-key-0123456789abcdef';

describe('the audit chain key', () => {
  it('is required in production, and each key must be long enough', () => {
    const production = { NODE_ENV: 'production', PUBLIC_URL: 'https://apply.example.edu' };
    expect(() => loadEnv(production)).toThrow(ConfigError);
    expect(() => loadEnv(production)).toThrow(/AUDIT_CHAIN_KEY: is required in production/);
    expect(loadEnv({ ...production, AUDIT_CHAIN_KEY: KEY }).AUDIT_CHAIN_KEY).toBe(KEY);
    expect(() => loadEnv({ AUDIT_CHAIN_KEY: 'short' })).toThrow(/AUDIT_CHAIN_KEY/);
    expect(() => loadEnv({ AUDIT_CHAIN_KEY: KEY, AUDIT_CHAIN_OLD_KEYS: `${OLD},short` })).toThrow(
      /AUDIT_CHAIN_OLD_KEYS/,
    );
    expect(() => loadEnv({ AUDIT_CHECKPOINT_MINUTES: '0' })).toThrow(/AUDIT_CHECKPOINT_MINUTES/);
  });

  it('comes from the environment with the retired keys, each known by an id made from it', async () => {
    const env = loadEnv({ AUDIT_CHAIN_KEY: KEY, AUDIT_CHAIN_OLD_KEYS: ` ${OLD} ` });
    const warnings: string[] = [];
    const keys = await auditKeysFromEnv(env, (message) => warnings.push(message));
    expect(keys.current).toEqual({ id: auditKeyId(KEY), secret: KEY });
    expect([...keys.byId.keys()]).toEqual([auditKeyId(KEY), auditKeyId(OLD)]);
    expect(auditKeyId(KEY)).toMatch(/^[0-9a-f]{16}$/);
    expect(auditKeyId(KEY)).not.toBe(auditKeyId(OLD));
    expect(warnings).toEqual([]);
  });

  it('outside production, without the setting, is made once into a file under DATA_DIR', async () => {
    const env = loadEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'portal-audit-key-')) });
    const warnings: string[] = [];
    const first = await auditKeysFromEnv(env, (message) => warnings.push(message));
    const second = await auditKeysFromEnv(env, () => {});
    expect(second.current).toEqual(first.current);
    const file = developmentKeyFile(env);
    expect((await readFile(file, 'utf8')).trim()).toBe(first.current.secret);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(warnings).toEqual([
      expect.stringContaining(
        `AUDIT_CHAIN_KEY is not set: the audit trail is signed with the key in ${path.resolve(file)}`,
      ),
    ]);
    expect(auditKeyring(first.current.secret).current.id).toBe(first.current.id);
  });
});
