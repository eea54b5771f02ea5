import type { FastifyPluginAsync } from 'fastify';
import type { StaffContext } from '../staff/staff-context';

export const serviceLinkRoutes: FastifyPluginAsync<StaffContext> = async () => {};
