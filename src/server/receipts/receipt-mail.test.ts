import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../config/project-root';
import { loadTenantConfig } from '../config/tenant';
import { readableSubmitTime, receiptMessage } from './receipt-mail';

const receipt = {
  number: 'NSU-FA26-000123',
  submitted_at: '2026-05-01T15:04:05.000Z',
  fingerprint: 'a'.repeat(64),
};

describe('the receipt mail', () => {
  it('says the number, the time and the fingerprint in plain text and escaped HTML', async () => {
    const sample = await loadTenantConfig(path.join(projectRoot, 'tenant', 'sample-tenant.json'));
    const tenant = { ...sample, partner_name: 'Smith & <Jones> College' };
    const mail = receiptMessage(
      tenant,
      'ana@example.edu',
      receipt,
      'https://apply.example.edu/completion',
    );
    expect(mail.to).toBe('ana@example.edu');
    expect(mail.subject).toBe(
      'Your application to Smith & <Jones> College is submitted: NSU-FA26-000123',
    );
    for (const body of [mail.text, mail.html]) {
      expect(body).toContain('NSU-FA26-000123');
      expect(body).toContain(receipt.fingerprint);
      expect(body).toContain('2026-05-01T15:04:05.000Z');
      expect(body).toContain('Friday, May 1, 2026 at 3:04 PM UTC');
      expect(body).toContain('https://apply.example.edu/completion');
    }
    expect(mail.text).toContain('Smith & <Jones> College');
    expect(mail.html).toContain('Smith &amp; &lt;Jones&gt; College');
    expect(mail.html).not.toContain('<Jones>');
    expect(mail.html).toContain(tenant.theme.primary.main);
  });

  it('reads the time in UTC', () => {
    expect(readableSubmitTime('2026-12-31T23:59:00Z')).toBe(
      'Thursday, December 31, 2026 at 11:59 PM UTC',
    );
  });
});
