import type { FastifyPluginAsync } from 'fastify';
import {
  type PublicTenantConfig,
  type TenantConfig,
  themeCustomProperties,
} from '../../shared/tenant/tenant-config';

/** The browser receives the tenant from the server, so one build serves every university. */
export const tenantRoutes: FastifyPluginAsync<{ tenant: TenantConfig }> = async (
  app,
  { tenant },
) => {
  const css = `:root {\n${Object.entries(themeCustomProperties(tenant.theme))
    .map(([property, value]) => `  ${property}: ${value};`)
    .join('\n')}\n}\n`;

  // The decision letters stay on the server: the public page needs none of them. The transfer GPA
  // rules are public: the coursework grid computes the applicant's totals with them as they type.
  const { decisions: _decisions, review: _review, ...publicTenant } = tenant;
  app.get('/public/tenant', async (_request, reply): Promise<PublicTenantConfig> => {
    reply.header('cache-control', 'no-cache');
    return publicTenant;
  });

  app.get('/tenant.css', async (_request, reply) => {
    reply.header('cache-control', 'no-cache').type('text/css; charset=utf-8');
    return css;
  });
};
