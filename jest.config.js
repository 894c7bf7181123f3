// The tests, in three tiers (jest projects), beside the code they test (*.spec.ts):
//   unit         *.spec.ts       in-process only: no build, no database, no other program;
//   integration  *.int.spec.ts   a database (a clone of the run's migrated template) or a program
//                                that is not ours (poppler, promtool, Chromium, the test broker);
//   e2e          *.e2e.spec.ts   the built apps, run as processes (apps/e2e holds the HTTP scenarios).
// `npx jest --selectProjects unit` runs one tier; a tier's global setup runs only when one of its
// files is selected. swc compiles (with decorator metadata, as Nest needs); `npm run typecheck` is
// where types are checked.
const { existsSync, readFileSync } = require('node:fs');
const swcrc = JSON.parse(readFileSync(`${__dirname}/.swcrc`, 'utf8'));
delete swcrc.jsc.baseUrl;
delete swcrc.jsc.paths;
delete swcrc.$schema;

const aliases = require('./tsconfig.base.json').compilerOptions.paths;
const moduleNameMapper = Object.fromEntries(
  Object.entries(aliases).map(([alias, [target]]) => [`^${alias}$`, `<rootDir>/${target}`]),
);

const shared = {
  rootDir: __dirname,
  testEnvironment: 'node',
  roots: ['apps', 'libs', 'tools', 'bench']
    .filter((dir) => existsSync(`${__dirname}/${dir}`))
    .map((dir) => `<rootDir>/${dir}`),
  transform: { '^.+\\.ts$': ['@swc/jest', { ...swcrc, swcrc: false }] },
  moduleNameMapper,
};

// Node's, printing under a failed test what the app processes it started logged as warnings
// and errors meanwhile (libs/testing/src/jest/process-test-environment.ts).
const PROCESS_TEST_ENVIRONMENT = '<rootDir>/libs/testing/src/jest/process-test-environment.ts';
const INTEGRATION = '\\.int\\.spec\\.ts$';
const E2E = '\\.e2e\\.spec\\.ts$';

module.exports = {
  testTimeout: 60000,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['**/*.spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', INTEGRATION, E2E],
      setupFiles: ['<rootDir>/libs/testing/src/jest/unit-tier.ts'],
    },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['**/*.int.spec.ts'],
      globalSetup: '<rootDir>/libs/testing/src/jest/global-setup.ts',
      globalTeardown: '<rootDir>/libs/testing/src/jest/global-teardown.ts',
      testEnvironment: PROCESS_TEST_ENVIRONMENT,
    },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['**/*.e2e.spec.ts'],
      globalSetup: '<rootDir>/libs/testing/src/jest/global-setup.ts',
      globalTeardown: '<rootDir>/libs/testing/src/jest/global-teardown.ts',
      testEnvironment: PROCESS_TEST_ENVIRONMENT,
    },
  ],
};
