import path from 'node:path';
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
  // Absolute, so the build works from any working directory (npm start builds from its own).
  root: path.join(import.meta.dirname, 'src/web'),
  publicDir: false,
  plugins: [react()],
  build: {
    outDir: path.join(import.meta.dirname, 'dist/web'),
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    port: Number(process.env.PORT ?? 3000),
    proxy: Object.fromEntries(proxiedPrefixes.map((prefix) => [prefix, apiTarget])),
  },
  test: {
    root: import.meta.dirname,
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
