import { describe, expect, it } from 'vitest';
import type { PublicTenantConfig } from '../../shared/tenant/tenant-config';
import { TENANT_IN_PAGE_ID } from '../../shared/tenant/tenant-in-page';
import { applicantPage } from './spa-routes';

const tenant = { partner_name: 'Example </script><script>alert(1)</script> University' };

describe("the applicant's page", () => {
  it('carries the public tenant configuration as data at the end of its head', () => {
    const page = applicantPage(
      '<html><head><title>x</title></head><body></body></html>',
      tenant as unknown as PublicTenantConfig,
    );
    const data = new RegExp(
      `<script type="application/json" id="${TENANT_IN_PAGE_ID}">(.*)</script>\\s*</head>`,
    ).exec(page);
    expect(data).not.toBeNull();
    // No text of the configuration can close the element.
    expect(data?.[1]).not.toContain('<');
    expect(JSON.parse(data?.[1] ?? '')).toEqual(tenant);
  });

  it('is served as it is when it has no head', () => {
    expect(applicantPage('<title>applicant</title>', tenant as unknown as PublicTenantConfig)).toBe(
      '<title>applicant</title>',
    );
  });
});
