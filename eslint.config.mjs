// Module boundaries are the architecture's dependency rules, enforced on every import:
// contracts depend on nothing of ours; the platform libraries (core, config, observability,
// database, bus, messaging, platform) on contracts and on each other, without cycles; a service's
// client (rating-client) on contracts and platform libraries; domain libs on contracts, platform
// libraries and clients; the gateway lib on contracts and platform libraries; apps on libs;
// nothing imports an app; tests may also import the test helpers (@consign/testing), which no
// production code does.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';

const LIBRARIES = [
  'scope:contracts',
  'scope:platform',
  'scope:client',
  'scope:domain',
  'scope:gateway',
];

/**
 * The dependency rules. Tests (`specs`) may also import the test helpers; the helpers import
 * contracts and platform, whose own tests use them: that cycle through @consign/testing is
 * allowed, and only that one.
 */
function moduleBoundaries({ specs }) {
  const testing = specs ? ['scope:testing'] : [];
  return {
    enforceBuildableLibDependency: false,
    allow: [],
    banTransitiveDependencies: false,
    ignoredCircularDependencies: ['scope:contracts', 'scope:platform'].map((tag) => [
      'testing',
      `tag:${tag}`,
    ]),
    depConstraints: [
      { sourceTag: 'scope:contracts', onlyDependOnLibsWithTags: [...testing] },
      // The platform libraries: over contracts and one another (acyclic: core and config at the
      // bottom, observability, database, bus, messaging, then platform composing them all).
      {
        sourceTag: 'scope:platform',
        onlyDependOnLibsWithTags: ['scope:contracts', 'scope:platform', ...testing],
      },
      // A service's client (what other services call it with): over contracts and platform.
      {
        sourceTag: 'scope:client',
        onlyDependOnLibsWithTags: ['scope:contracts', 'scope:platform', ...testing],
      },
      ...['scope:domain', 'scope:gateway'].map((sourceTag) => ({
        sourceTag,
        onlyDependOnLibsWithTags: ['scope:contracts', 'scope:platform', 'scope:client', ...testing],
      })),
      // The test helpers depend on no service library: every project's specs import them, so a
      // helper that imported one would make a change to it affect every project's tests.
      {
        sourceTag: 'scope:testing',
        onlyDependOnLibsWithTags: ['scope:contracts', 'scope:platform'],
      },
      { sourceTag: 'scope:app', onlyDependOnLibsWithTags: [...LIBRARIES, ...testing] },
      // The end-to-end suites, the benchmarks, and the checks of the generated documents and the
      // deployment files (tools/): every library, the test helpers included.
      ...['scope:e2e', 'scope:tools'].map((sourceTag) => ({
        sourceTag,
        onlyDependOnLibsWithTags: [...LIBRARIES, 'scope:testing'],
      })),
    ],
  };
}

/** class-transformer's modules other than its entry point are private. */
const CLASS_TRANSFORMER_PRIVATE = {
  group: ['class-transformer/*'],
  message: "class-transformer's private modules; its metadata is not read outside its API.",
};

/** class-validator's metadata storage has one reader: describeContract (contract-metadata.ts). */
const VALIDATION_METADATA = {
  name: 'class-validator',
  importNames: ['getMetadataStorage'],
  message: 'Read validation rules with describeContract (@consign/contracts).',
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'coverage/**',
      'data/**',
      'tmp/**',
      '**/*.js',
      '**/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': ['error', moduleBoundaries({ specs: false })],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-imports': [
        'error',
        { paths: [VALIDATION_METADATA], patterns: [CLASS_TRANSFORMER_PRIVATE] },
      ],
    },
  },
  {
    // The contracts' transformation metadata is recorded where it is read, by the contracts' own
    // decorators (@NestedType, @Transformed: libs/contracts/src/common/contract-metadata.ts).
    files: ['libs/contracts/src/**/*.ts'],
    ignores: ['libs/contracts/src/common/contract-metadata.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'class-transformer',
              importNames: ['Type', 'Transform', 'Expose', 'Exclude'],
              message: 'Contracts use @NestedType and @Transformed (common/contract-metadata.ts).',
            },
            VALIDATION_METADATA,
          ],
          patterns: [CLASS_TRANSFORMER_PRIVATE],
        },
      ],
    },
  },
  {
    // The gateway serves its route table as a plain Fastify plugin: no framework internals.
    files: ['libs/gateway/src/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [VALIDATION_METADATA],
          patterns: [
            CLASS_TRANSFORMER_PRIVATE,
            {
              group: ['@nestjs/*/*'],
              message:
                "A framework's internals: use its public entry (the route table needs none).",
            },
          ],
        },
      ],
    },
  },
  {
    // The one reader of the validation metadata.
    files: ['libs/contracts/src/common/contract-metadata.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [CLASS_TRANSFORMER_PRIVATE] }] },
  },
  {
    // A test may import the test helpers (@consign/testing), whatever project it tests.
    files: ['**/*.spec.ts', 'libs/*/src/testing/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': ['error', moduleBoundaries({ specs: true })] },
  },
  {
    files: ['**/*.spec.ts', 'bench/**/*.ts', 'libs/testing/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  prettier,
);
