import { sha256 } from '../../accounts/secrets';
import { lazy } from '../../runtime/lazy';
import {
  type ExternalIdentity,
  type IdentityProvider,
  SsoRefusal,
  SsoUnavailable,
} from './identity-provider';
import { claimValues } from './role-mapping';
import type { SsoStore } from './sso-store';

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  roleClaim: string;
  /** Plain http to the provider: only for a provider on this machine, outside production. */
  allowHttp: boolean;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Whether the issuer may be reached over http: a loopback address, outside production. */
export function httpIssuerAllowed(issuer: string, nodeEnv: string): boolean {
  const url = new URL(issuer);
  if (url.protocol === 'https:') return true;
  return nodeEnv !== 'production' && LOOPBACK_HOSTS.has(url.hostname);
}

function isNetworkFailure(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (current.name === 'TimeoutError' || current.name === 'AbortError') return true;
    if (current instanceof TypeError && /fetch failed/i.test(current.message)) return true;
    if (
      'code' in current &&
      /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN)$/.test(String(current.code))
    )
      return true;
  }
  return false;
}

/** An error's message with its causes' (openid-client wraps the precise one) and code. */
function describeError(error: unknown): string {
  const parts: string[] = [];
  for (let current = error; current instanceof Error && parts.length < 4; current = current.cause) {
    const code = 'code' in current && typeof current.code === 'string' ? ` (${current.code})` : '';
    parts.push(`${current.message}${code}`);
  }
  return parts.length > 0 ? parts.join(': ') : String(error);
}

function stringClaim(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** The identity an ID token's claims describe. */
export function identityFromClaims(
  claims: Readonly<Record<string, unknown>>,
  roleClaim: string,
): ExternalIdentity {
  const given = [stringClaim(claims.given_name), stringClaim(claims.family_name)].filter(Boolean);
  return {
    issuer: String(claims.iss),
    subject: String(claims.sub),
    email: stringClaim(claims.email),
    emailVerified: typeof claims.email_verified === 'boolean' ? claims.email_verified : null,
    displayName: stringClaim(claims.name) ?? given.join(' '),
    roleClaimValues: claimValues(claims[roleClaim]),
    authTime: typeof claims.auth_time === 'number' ? new Date(claims.auth_time * 1000) : null,
  };
}

/**
 * The university's OpenID Connect provider through openid-client: authorization code with PKCE
 * (S256), state and nonce; the ID token's signature (against the provider's published keys),
 * issuer, audience, expiry and nonce are checked by the library. Discovery happens on first use and is kept; a failed one is tried again.
 */
export function oidcIdentityProvider(settings: OidcSettings, sso: SsoStore): IdentityProvider {
  const openid = lazy(() => import('openid-client'));
  const configuration = lazy(async () => {
    const client = await openid();
    try {
      return await client.discovery(
        new URL(settings.issuer),
        settings.clientId,
        undefined,
        client.ClientSecretBasic(settings.clientSecret),
        {
          // The ID token comes straight from the token endpoint over TLS, where OpenID Connect
          // lets a client skip its signature; checking it against the provider's keys costs one
          // cached fetch and stops a forged token even where TLS is terminated early.
          execute: [
            client.enableNonRepudiationChecks,
            ...(settings.allowHttp ? [client.allowInsecureRequests] : []),
          ],
          timeout: 10,
        },
      );
    } catch (error) {
      throw new SsoUnavailable(`OpenID Connect discovery at ${settings.issuer} failed`, {
        cause: error,
      });
    }
  });

  return {
    method: 'oidc',

    async start(request) {
      const [client, config] = await Promise.all([openid(), configuration()]);
      const state = client.randomState();
      const nonce = client.randomNonce();
      const codeVerifier = client.randomPKCECodeVerifier();
      await sso.savePending({ state, nonce, codeVerifier, stepUpSession: request.stepUpSession });
      const parameters: Record<string, string> = {
        redirect_uri: request.callbackUrl,
        scope: 'openid email profile',
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      };
      // A step-up needs the member to authenticate again now, not a provider session's answer.
      if (request.stepUpSession) Object.assign(parameters, { prompt: 'login', max_age: '0' });
      return {
        redirectUrl: client.buildAuthorizationUrl(config, parameters).href,
        browserBinding: state,
      };
    },

    async finish(response) {
      const state = response.params.get('state');
      if (!state) throw new SsoRefusal('sso_expired', 'the answer carries no state');
      if (!response.browserBinding || sha256(response.browserBinding) !== sha256(state)) {
        throw new SsoRefusal(
          'sso_expired',
          'the state is not the one this browser started with (login CSRF or another browser)',
        );
      }
      const pending = await sso.takePending(state);
      if (!pending) {
        throw new SsoRefusal('sso_expired', 'the state is unknown, expired or already used');
      }
      const providerError = response.params.get('error');
      if (providerError) {
        const description = response.params.get('error_description');
        throw new SsoRefusal(
          'sso_cancelled',
          `the provider answered ${providerError.slice(0, 100)}${description ? `: ${description.slice(0, 200)}` : ''}`,
        );
      }
      const client = await openid();
      const currentUrl = new URL(response.callbackUrl);
      currentUrl.search = response.params.toString();
      const stepUp = pending.stepUpSession !== null;
      try {
        const config = await configuration();
        const tokens = await client.authorizationCodeGrant(config, currentUrl, {
          expectedState: state,
          expectedNonce: pending.nonce,
          pkceCodeVerifier: pending.codeVerifier,
          idTokenExpected: true,
          // A step-up asked for max_age=0: the authentication must be later than its start.
          ...(stepUp
            ? { maxAge: Math.max(0, Math.ceil((Date.now() - pending.createdAt.getTime()) / 1000)) }
            : {}),
        });
        const claims = tokens.claims();
        if (!claims) throw new SsoRefusal('sso_failed', 'the provider sent no ID token');
        return {
          identity: identityFromClaims(claims, settings.roleClaim),
          stepUpSession: pending.stepUpSession,
        };
      } catch (error) {
        if (error instanceof SsoRefusal) throw error;
        if (error instanceof SsoUnavailable || isNetworkFailure(error)) {
          throw new SsoRefusal('sso_unavailable', `the provider could not be reached: ${error}`);
        }
        const reason = describeError(error);
        if (error instanceof client.AuthorizationResponseError) {
          throw new SsoRefusal('sso_cancelled', `the provider answered ${reason}`);
        }
        if (stepUp && /auth_time|End-User authentication/i.test(reason)) {
          throw new SsoRefusal('sso_step_up_stale', `no fresh authentication: ${reason}`);
        }
        throw new SsoRefusal('sso_failed', `the provider's answer was refused: ${reason}`);
      }
    },
  };
}
