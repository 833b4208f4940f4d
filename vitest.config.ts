import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/services.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: one worker runs tests while the other serves child processes of the scale-out tests.
    maxWorkers: 2,
  },
});
