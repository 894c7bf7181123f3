// Module boundaries are the architecture's dependency rules, enforced on every import:
// contracts depend on nothing of ours; platform on contracts; domain libs on contracts and platform;
// the gateway lib on contracts and platform; apps on libs; nothing imports an app.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';

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
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          banTransitiveDependencies: false,
          depConstraints: [
            { sourceTag: 'scope:contracts', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'scope:platform', onlyDependOnLibsWithTags: ['scope:contracts'] },
            {
              sourceTag: 'scope:domain',
              onlyDependOnLibsWithTags: ['scope:contracts', 'scope:platform'],
            },
            {
              sourceTag: 'scope:gateway',
              onlyDependOnLibsWithTags: ['scope:contracts', 'scope:platform'],
            },
            {
              sourceTag: 'scope:testing',
              onlyDependOnLibsWithTags: [
                'scope:contracts',
                'scope:platform',
                'scope:domain',
                'scope:gateway',
              ],
            },
            {
              sourceTag: 'scope:app',
              onlyDependOnLibsWithTags: [
                'scope:contracts',
                'scope:platform',
                'scope:domain',
                'scope:gateway',
              ],
            },
            // The end-to-end suites, and the checks of the generated documents and the
            // deployment files (tools/): every library, the test helpers included.
            ...['scope:e2e', 'scope:tools'].map((sourceTag) => ({
              sourceTag,
              onlyDependOnLibsWithTags: [
                'scope:contracts',
                'scope:platform',
                'scope:domain',
                'scope:gateway',
                'scope:testing',
              ],
            })),
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['**/*.spec.ts', 'bench/**/*.ts', 'libs/testing/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  prettier,
);
