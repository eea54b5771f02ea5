// Run by start-loads.test.ts in a process of its own: builds the whole app on the embedded
// database, with the environment in APP_ENV (JSON), and prints the packages it loaded.
import { registerHooks } from 'node:module';

const loaded = new Set<string>();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    const name = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(resolved.url)?.[1];
    if (name) loaded.add(name);
    return resolved;
  },
});

const { buildTestApp } = await import('./test-app');
const app = await buildTestApp('pglite', { env: JSON.parse(process.env.APP_ENV ?? '{}') });
await app.close();
process.stdout.write(JSON.stringify([...loaded].sort()));
