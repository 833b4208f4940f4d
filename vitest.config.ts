import { defineConfig } from 'vitest/config';

// Files that need a module graph of their own: yahoo-finance2 keeps the crumb it fetched in module state, so a
// file that counts the stand-in's crumb requests must not inherit another file's.
const ISOLATED = [
  'test/market/live.test.ts',
  'test/market/live-statements.test.ts',
  'test/market/yahoo-partial.test.ts',
];

export default defineConfig({
  test: {
    globalSetup: ['test/helpers/services.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: one worker runs tests while the other serves child processes of the scale-out tests.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        // The other files share each worker's modules: importing the app once a worker instead of once a file
        // took the suite from 551 s to about 370 s on two cores (every file still builds its own store).
        test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: ISOLATED, isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
});
