import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const apiPort = Number(process.env.API_PORT ?? 3001);
const apiTarget = `http://127.0.0.1:${apiPort}`;
const proxiedPrefixes = [
  '/api',
  '/public',
  '/service',
  '/lookup',
  '/dev',
  '/healthz',
  '/readyz',
  '/tenant.css',
];

export default defineConfig({
  root: 'src/web',
  publicDir: false,
  plugins: [react()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    port: Number(process.env.PORT ?? 3000),
    proxy: Object.fromEntries(proxiedPrefixes.map((prefix) => [prefix, apiTarget])),
  },
  test: {
    root: '.',
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
