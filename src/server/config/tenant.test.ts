import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { letterTemplateOf } from '../../shared/decisions/decision-config';
import { sampleTenantFile } from '../test/test-app';
import { ConfigError, loadEnv } from './env';
import { loadTenantConfig } from './tenant';

type EditableTenant = Record<string, unknown> & {
  theme: { primary: { main: string } };
  urls: { privacy: string };
};

async function tenantFileWith(change: (tenant: EditableTenant) => void): Promise<string> {
  const tenant = JSON.parse(await readFile(sampleTenantFile, 'utf8')) as EditableTenant;
  change(tenant);
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'tenant-')), 'tenant.json');
  await writeFile(file, JSON.stringify(tenant));
  return file;
}

describe('tenant configuration', () => {
  it('loads the sample tenant', async () => {
    const tenant = await loadTenantConfig(sampleTenantFile);
    expect(tenant.partner_name).toBe('Northfield State University');
  });

  it.each([
    ['a missing help email', (t: EditableTenant) => delete t.help_email, 'help_email: is required'],
    [
      'a malformed colour',
      (t: EditableTenant) => (t.theme.primary.main = 'blue'),
      'theme.primary.main: must be a hex colour',
    ],
    ['an unknown key', (t: EditableTenant) => (t.partner_nmae = 'x'), 'partner_nmae'],
    ['a bad URL', (t: EditableTenant) => (t.urls.privacy = 'javascript:alert(1)'), 'urls.privacy'],
    [
      'analytics without a policy',
      (t: EditableTenant) => (t.analytics = { name: 'Campus Analytics' }),
      'analytics.policy_url: is required',
    ],
    [
      'analytics without a name',
      (t: EditableTenant) => (t.analytics = { name: ' ', policy_url: 'https://example.edu/a' }),
      'analytics.name: is required',
    ],
  ])('names the field at fault for %s', async (_case, change, expected) => {
    const file = await tenantFileWith(change);
    await expect(loadTenantConfig(file)).rejects.toThrow(ConfigError);
    await expect(loadTenantConfig(file)).rejects.toThrow(expected);
  });

  it('takes an optional analytics setting, and none is needed', async () => {
    expect((await loadTenantConfig(sampleTenantFile)).analytics).toBeUndefined();
    const analytics = { name: 'Campus Analytics', policy_url: 'https://example.edu/analytics' };
    const file = await tenantFileWith((tenant) => {
      tenant.analytics = analytics;
    });
    expect((await loadTenantConfig(file)).analytics).toEqual(analytics);
  });

  it('takes decision codes and a reply deadline, and refuses a letter with an unknown placeholder', async () => {
    expect((await loadTenantConfig(sampleTenantFile)).decisions.codes.map((c) => c.code)).toEqual([
      'admit',
      'deny',
      'waitlist',
      'defer',
    ]);
    const letter = (text: string) => (tenant: EditableTenant) => {
      tenant.decisions = {
        codes: [{ code: 'admit', label: 'Admit', offer: true, letter: text }],
        reply_deadline: '2027-05-01',
      };
    };
    const good = await loadTenantConfig(
      await tenantFileWith(letter('Dear {{ preferred_name }}, welcome to {{program}}.')),
    );
    expect(good.decisions).toMatchObject({ reply_deadline: '2027-05-01' });
    const file = await tenantFileWith(letter('Dear {{nickname}}, see you in {{term}} {{ year }}.'));
    await expect(loadTenantConfig(file)).rejects.toThrow(ConfigError);
    await expect(loadTenantConfig(file)).rejects.toThrow(
      'decisions.codes.0.letter: names unknown placeholders: {{nickname}}, {{year}}',
    );
  });

  it('never prints an empty deadline: the built-in letter leaves its sentence out, a tenant letter is refused', async () => {
    const sample = await loadTenantConfig(sampleTenantFile);
    expect(sample.decisions.reply_deadline).toBeUndefined();
    const admitCode = sample.decisions.codes.find((code) => code.code === 'admit');
    if (!admitCode) throw new Error('the sample tenant has an admit code');
    const admit = letterTemplateOf(admitCode, sample.decisions);
    expect(admit).toContain('Please accept or decline this offer on your application status page.');
    expect(admit).not.toMatch(/reply_deadline/);
    // Chosen at release from the settings then in force, not fixed when the file was read.
    expect(letterTemplateOf(admitCode, { reply_deadline: '2027-05-01' })).toContain(
      'by **{{reply_deadline}}**',
    );
    const file = await tenantFileWith((tenant) => {
      tenant.decisions = {
        codes: [
          { code: 'admit', label: 'Admit', offer: true, letter: 'Reply by {{ reply_deadline }}.' },
        ],
      };
    });
    await expect(loadTenantConfig(file)).rejects.toThrow(
      'decisions.codes.0.letter: names {{reply_deadline}}, but decisions.reply_deadline is not set',
    );
  });

  it('takes coursework rules, defaults without them, and refuses a broken rule by name', async () => {
    expect((await loadTenantConfig(sampleTenantFile)).coursework.repeat_policy).toBe('latest');
    const highest = await tenantFileWith((tenant) => {
      tenant.coursework = { repeat_policy: 'highest', lowest_transferable_grade: 'C' };
    });
    expect((await loadTenantConfig(highest)).coursework).toMatchObject({
      repeat_policy: 'highest',
      lowest_transferable_grade: 'C',
      quarter_to_semester: '2/3',
    });
    const broken = await tenantFileWith((tenant) => {
      tenant.coursework = { grade_points: { A: 4, F: -1 }, lowest_transferable_grade: 'A' };
    });
    await expect(loadTenantConfig(broken)).rejects.toThrow(ConfigError);
    await expect(loadTenantConfig(broken)).rejects.toThrow(
      'coursework.grade_points.F: must not be negative (it is -1)',
    );
  });

  it('explains a file that is not JSON or not there', async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'tenant-')), 'tenant.json');
    await expect(loadTenantConfig(file)).rejects.toThrow(
      'Cannot read the tenant configuration file',
    );
    await writeFile(file, '{ nope');
    await expect(loadTenantConfig(file)).rejects.toThrow('is not valid JSON');
  });
});

describe('environment', () => {
  it('applies defaults and names a bad variable', () => {
    expect(loadEnv({}).PORT).toBe(3000);
    expect(loadEnv({}).DATA_DIR).toBe('./data');
    expect(() => loadEnv({ PORT: 'eighty' })).toThrow('PORT');
    expect(() => loadEnv({ DATABASE_URL: 'mysql://x' })).toThrow(
      'DATABASE_URL: must be a postgres://',
    );
  });
});
