import type { FastifyPluginAsync } from 'fastify';
import type { StaffContext } from './staff-context';

export const staffAdminRoutes: FastifyPluginAsync<StaffContext> = async () => {};
