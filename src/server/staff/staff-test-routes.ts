import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { STAFF_ROLES } from '../../shared/staff/permissions';
import type { Env } from '../config/env';
import { devToolsGuard } from '../http/dev-tools-access';
import { siteUrl } from '../http/site-url';
import type { ZodTypeProvider } from '../http/zod-validation';
import { type InvitationDependencies, inviteStaff } from './invitations';

const invitationBody = z.strictObject({
  email: z.string().min(3).max(254),
  role: z.enum(STAFF_ROLES),
});

/**
 * `npm run staff -- invite` as a call, for the end-to-end tests only: their server keeps its
 * embedded database locked. app.ts registers it only when NODE_ENV is test, and it answers only
 * this machine and the holder of the development tools key. It runs the command's own function.
 */
export const staffTestRoutes: FastifyPluginAsync<
  InvitationDependencies & { env: Pick<Env, 'PUBLIC_URL'>; devToolsKey: string }
> = async (parent, options) => {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', devToolsGuard(options.devToolsKey));
  app.post('/dev/staff-invitation', { schema: { body: invitationBody } }, async (request) => {
    const invitation = await inviteStaff(options, {
      email: request.body.email,
      role: request.body.role,
      base: siteUrl(options.env, request),
      actor: { type: 'system', label: 'test set-up' },
      ip: request.ip,
    });
    return { link: invitation.link, staff_id: invitation.member.id };
  });
};
