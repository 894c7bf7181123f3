// One jest run for the whole monorepo. Tests sit beside the code (*.spec.ts); HTTP scenarios
// against running apps live in apps/e2e. swc compiles (with decorator metadata, as Nest needs);
// `npm run typecheck` is where types are checked.
const { existsSync, readFileSync } = require('node:fs');
const swcrc = JSON.parse(readFileSync(`${__dirname}/.swcrc`, 'utf8'));
delete swcrc.jsc.baseUrl;
delete swcrc.jsc.paths;
delete swcrc.$schema;

const aliases = require('./tsconfig.base.json').compilerOptions.paths;
const moduleNameMapper = Object.fromEntries(
  Object.entries(aliases).map(([alias, [target]]) => [`^${alias}$`, `<rootDir>/${target}`]),
);

module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  roots: ['apps', 'libs', 'tools', 'bench']
    .filter((dir) => existsSync(`${__dirname}/${dir}`))
    .map((dir) => `<rootDir>/${dir}`),
  testMatch: ['**/*.spec.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { ...swcrc, swcrc: false }] },
  moduleNameMapper,
  globalSetup: '<rootDir>/apps/e2e/src/global-setup.ts',
  globalTeardown: '<rootDir>/apps/e2e/src/global-teardown.ts',
  testTimeout: 60000,
};
