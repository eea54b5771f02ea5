import type { FastifyPluginAsync } from 'fastify';
import type { StaffContext } from './staff-context';

export const staffAuthRoutes: FastifyPluginAsync<StaffContext> = async () => {};
