import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Native addons (llama.cpp, SQLite) and spawned CLI processes: forks isolate them best.
    pool: 'forks',
    maxWorkers: 2,
  },
});
