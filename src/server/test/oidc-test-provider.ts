import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, importJWK, SignJWT } from 'jose';

/*
 * A real OpenID provider (oidc-provider, OpenID Certified) on 127.0.0.1 in the test's own
 * process: discovery, the authorization endpoint with its own login page, the token endpoint and
 * the JWKS, all over HTTP as a university's provider would answer them.
 */

export interface TestOidcClient {
  client_id: string;
  client_secret: string;
  redirect_uris: readonly string[];
  /** Any other client metadata, e.g. `require_auth_time: false`. */
  [metadata: string]: unknown;
}

export interface TestOidcAccount {
  email: string;
  email_verified?: boolean;
  name?: string;
  groups?: readonly string[];
}

export type IdTokenClaims = Record<string, unknown>;

export interface TestOidcProvider {
  /** The issuer identifier, e.g. http://127.0.0.1:41234 (OIDC_ISSUER). */
  issuer: string;
  /**
   * Plays the browser from the authorization URL the app redirected to: follows the provider's
   * redirects with a cookie jar, submits the login form as `login`, and returns the address the
   * provider finally sends the browser to (the client's redirect URI with `code` and `state`).
   */
  signIn(authorizationUrl: string, login: string): Promise<string>;
  /** Adds or replaces an account, e.g. to change its groups before the next sign-in. */
  setAccount(login: string, account: TestOidcAccount): void;
  /**
   * The next token response carries an ID token changed by `change` and signed again, with the
   * provider's own key or, `foreignKey`, with a key the provider never published (a forgery).
   */
  tamperNextIdToken(
    change: (claims: IdTokenClaims) => IdTokenClaims,
    options?: { foreignKey?: boolean },
  ): void;
  close(): Promise<void>;
}

/** The parts of oidc-provider this file uses (the package ships no types). */
interface KoaContext {
  path: string;
  method: string;
  body: unknown;
  type: string;
}
interface InteractionDetails {
  uid: string;
  prompt: { name: string; details: Record<string, unknown> };
  params: Record<string, unknown>;
  session?: { accountId: string };
  grantId?: string;
}
interface Grant {
  addOIDCScope(scope: string): void;
  addOIDCClaims(claims: string[]): void;
  save(): Promise<string>;
}
interface Provider {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  use(middleware: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
  interactionFinished(
    req: IncomingMessage,
    res: ServerResponse,
    result: Record<string, unknown>,
    options: { mergeWithLastSubmission: boolean },
  ): Promise<void>;
  Grant: {
    new (init: { accountId: string; clientId: string }): Grant;
    find(id: string): Promise<Grant | undefined>;
  };
}
type ProviderClass = new (issuer: string, configuration: Record<string, unknown>) => Provider;

/** The package name in a constant: its import is typed by the interfaces above. */
const OIDC_PROVIDER_PACKAGE = 'oidc-provider';

interface Stored {
  payload: Record<string, unknown>;
  expiresAt: number;
}

/** The provider's storage (sessions, codes, grants), in memory for one provider's life. */
function memoryAdapter(store: Map<string, Stored>, model: string) {
  const key = (id: string) => `${model}:${id}`;
  const live = (id: string) => {
    const entry = store.get(key(id));
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      store.delete(key(id));
      return undefined;
    }
    return entry.payload;
  };
  const findBy = (field: string, value: string) =>
    [...store.entries()].find(
      ([entryKey, entry]) =>
        entryKey.startsWith(`${model}:`) &&
        entry.payload[field] === value &&
        entry.expiresAt > Date.now(),
    )?.[1].payload;
  return {
    async upsert(id: string, payload: Record<string, unknown>, expiresIn: number) {
      store.set(key(id), { payload, expiresAt: Date.now() + expiresIn * 1000 });
    },
    async find(id: string) {
      return live(id);
    },
    async findByUid(uid: string) {
      return findBy('uid', uid);
    },
    async findByUserCode(userCode: string) {
      return findBy('userCode', userCode);
    },
    async consume(id: string) {
      const payload = live(id);
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    },
    async destroy(id: string) {
      store.delete(key(id));
    },
    async revokeByGrantId(grantId: string) {
      for (const [entryKey, entry] of store) {
        if (entry.payload.grantId === grantId) store.delete(entryKey);
      }
    },
  };
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );
}

function loginPage(uid: string, error?: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Sign in - Test University</title></head>
<body>
<main>
<h1>Sign in to Test University</h1>
${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}">
<label for="login">Username</label>
<input id="login" name="login" type="text" autocomplete="username" required autofocus>
<button type="submit">Sign in</button>
</form>
</main>
</body>
</html>`;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function decodePayload(jwt: string): IdTokenClaims {
  const payload = jwt.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as IdTokenClaims;
}

function decodeHeader(jwt: string): Record<string, unknown> {
  const header = jwt.split('.')[0] ?? '';
  return JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as Record<string, unknown>;
}

export async function startTestOidcProvider(options: {
  clients: readonly TestOidcClient[];
  accounts: Readonly<Record<string, TestOidcAccount>>;
  /** A fixed port, e.g. for a browser test whose server needs the issuer first; else a free one. */
  port?: number;
}): Promise<TestOidcProvider> {
  const accounts = new Map(Object.entries(options.accounts));
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingJwk = {
    ...(await exportJWK(privateKey)),
    kid: randomUUID(),
    alg: 'RS256',
    use: 'sig',
  };
  const signingKey = await importJWK(signingJwk, 'RS256');
  const forger = (await generateKeyPair('RS256')).privateKey;
  const tampering: Array<{
    change: (claims: IdTokenClaims) => IdTokenClaims;
    foreignKey: boolean;
  }> = [];

  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => {
    res.statusCode = 503;
    res.end();
  };
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;

  const { default: Provider } = (await import(OIDC_PROVIDER_PACKAGE)) as {
    default: ProviderClass;
  };
  const store = new Map<string, Stored>();
  const provider = new Provider(issuer, {
    adapter: (model: string) => memoryAdapter(store, model),
    clients: options.clients.map((client) => ({
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      require_auth_time: true,
      ...client,
    })),
    jwks: { keys: [signingJwk] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    pkce: { required: () => true },
    // Claims of the granted scopes go into the ID token itself, as Entra ID and Okta can send them.
    conformIdTokenClaims: false,
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'groups'],
    },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: false },
    },
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
    async findAccount(_ctx: unknown, id: string) {
      const account = accounts.get(id);
      if (!account) return undefined;
      return {
        accountId: id,
        async claims() {
          return { sub: id, ...account };
        },
      };
    },
    clientBasedCORS: () => false,
    async renderError(ctx: KoaContext, out: Record<string, string>) {
      ctx.type = 'html';
      ctx.body = `<!doctype html><html lang="en"><title>Error</title><p>${escapeHtml(
        `${out.error}: ${out.error_description ?? ''}`,
      )}</p></html>`;
    },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      IdToken: 600,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
    },
  });

  // A misbehaving provider: the next ID token is changed and signed again with the real key.
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.path !== '/token' || ctx.method !== 'POST') return;
    const body = ctx.body as { id_token?: string } | undefined;
    const tamper = tampering.shift();
    if (!tamper || !body?.id_token) return;
    const header = decodeHeader(body.id_token);
    body.id_token = await new SignJWT(tamper.change(decodePayload(body.id_token)))
      .setProtectedHeader({ alg: 'RS256', kid: String(header.kid), typ: 'JWT' })
      .sign(tamper.foreignKey ? forger : signingKey);
  });

  async function interaction(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    const html = (status: number, page: string) => {
      res.statusCode = status;
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(page);
    };
    if (req.method === 'GET') return html(200, loginPage(details.uid));
    if (req.method !== 'POST') return html(405, 'Method not allowed');
    let accountId = details.session?.accountId;
    if (details.prompt.name === 'login') {
      const login = new URLSearchParams(await readBody(req)).get('login')?.trim() ?? '';
      if (!accounts.has(login)) return html(200, loginPage(details.uid, 'Unknown username.'));
      accountId = login;
    }
    if (!accountId) return html(400, 'No account');
    const clientId = String(details.params.client_id);
    const grant =
      (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ??
      new provider.Grant({ accountId, clientId });
    grant.addOIDCScope(String(details.params.scope ?? 'openid'));
    grant.addOIDCClaims(['groups']);
    const grantId = await grant.save();
    const result =
      details.prompt.name === 'login'
        ? { login: { accountId }, consent: { grantId } }
        : { consent: { grantId } };
    await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
  }

  const providerHandler = provider.callback();
  handler = (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      interaction(req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
      return;
    }
    providerHandler(req, res);
  };

  return {
    issuer,

    async signIn(authorizationUrl, login) {
      const jar = new Map<string, string>();
      let url = authorizationUrl;
      let form: string | undefined;
      for (let hop = 0; hop < 10; hop++) {
        if (!url.startsWith(`${issuer}/`)) return url;
        const response = await fetch(url, {
          method: form === undefined ? 'GET' : 'POST',
          redirect: 'manual',
          headers: {
            cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
            ...(form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
          },
          body: form,
        });
        for (const cookie of response.headers.getSetCookie()) {
          const [pair = ''] = cookie.split(';');
          const separator = pair.indexOf('=');
          const name = pair.slice(0, separator).trim();
          const value = pair.slice(separator + 1).trim();
          if (value === '' || /expires=Thu, 01 Jan 1970/i.test(cookie)) jar.delete(name);
          else jar.set(name, value);
        }
        const location = response.headers.get('location');
        if (response.status >= 300 && response.status < 400 && location) {
          await response.body?.cancel();
          url = new URL(location, url).href;
          form = undefined;
          continue;
        }
        const page = await response.text();
        if (response.status === 200 && url.includes('/interaction/') && form === undefined) {
          if (!page.includes('<label for="login">Username</label>')) {
            throw new Error(`no login form at ${url}`);
          }
          form = new URLSearchParams({ login }).toString();
          continue;
        }
        throw new Error(
          `the provider answered ${response.status} at ${url}: ${page.slice(0, 300)}`,
        );
      }
      throw new Error('too many redirects at the provider');
    },

    setAccount(login, account) {
      accounts.set(login, account);
    },

    tamperNextIdToken(change, options = {}) {
      tampering.push({ change, foreignKey: options.foreignKey ?? false });
    },

    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}
