import type { FastifyPluginAsync } from 'fastify';
import { HttpError } from '../http/http-error';

export const NOT_SIGNED_IN_MESSAGE = 'You are not signed in.';

export const accountsRoutes: FastifyPluginAsync = async (app) => {
  // Sessions arrive with the accounts capability; until an account can sign in, nobody is signed in.
  app.get('/api/profile', async () => {
    throw new HttpError(401, NOT_SIGNED_IN_MESSAGE);
  });
};
