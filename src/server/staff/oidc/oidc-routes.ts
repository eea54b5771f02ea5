import type { FastifyPluginAsync } from 'fastify';
import type { StaffContext } from '../staff-context';

export const oidcRoutes: FastifyPluginAsync<StaffContext> = async () => {};
