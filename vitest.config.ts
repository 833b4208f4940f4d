import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Files that need a module graph of their own: yahoo-finance2 keeps the crumb it fetched in module state, so a
// file that counts the stand-in's crumb requests must not inherit another file's.
const ISOLATED = [
  'test/market/providers/live.test.ts',
  'test/market/providers/live-statements.test.ts',
  'test/market/providers/yahoo-partial.test.ts',
];

// The files that take longest start first, so that the two workers finish together instead of one running a
// long file alone at the end (a run without the order cached, as on a fresh clone, began them late).
const LONGEST = [
  'test/datasets/real-routes.test.ts',
  'test/cli/demo.test.ts',
  'test/datasets/bulk/layouts.test.ts',
  'test/market/load/sec-exchanges.test.ts',
  'test/http/fuzz.test.ts',
  'test/http/console/console.test.ts',
  'test/datasets/cpi/vintages.test.ts',
  'test/ingest/sec/sync.test.ts',
  'test/datasets/cot/cftc-load.test.ts',
  'test/ingest/collector-processes.test.ts',
  'test/http/openapi-quality.test.ts',
  'test/cli/cli.test.ts',
  'test/http/operations.test.ts',
  'test/runtime/crash.test.ts',
  'test/http/console/browser.test.ts',
  'test/store/scaleout.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = LONGEST.findIndex((name) => file.moduleId.endsWith(name));
      return at < 0 ? LONGEST.length : at;
    };
    return [...(await super.sort(files))].sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    globalSetup: ['test/helpers/services.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: one worker runs tests while the other serves child processes of the scale-out tests.
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
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
