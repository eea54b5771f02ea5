import {
  type ApiClientSecretResponse,
  type ApiClientView,
  apiClientUrls,
  type CreateApiClientBody,
} from '../../../shared/integration/api-clients-api';
import { getJson, postJson } from '../../data/http-client';

/** Integrators' API clients (src/shared/integration/api-clients-api.ts has the contract). */
export const apiClientCalls = {
  list: () => getJson<ApiClientView[]>(apiClientUrls.clients),
  create: (body: CreateApiClientBody) =>
    postJson<ApiClientSecretResponse>(apiClientUrls.clients, body),
  rotate: (id: string) => postJson<ApiClientSecretResponse>(apiClientUrls.rotate(id)),
  revoke: (id: string) => postJson<ApiClientView>(apiClientUrls.revoke(id)),
};

export const apiClientKeys = {
  clients: ['integrations', 'clients'],
} as const;
