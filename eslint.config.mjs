// Lint for every project. The module-boundary rule makes the Nx tags real: apps and the bench tool
// use libs only through their public entry (index.ts), libs never reach into apps, and the bench
// never imports app sources (it runs the apps' builds as processes).
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import benchRooms from './tools/bench/rooms.js';

export default [
  { ignores: ['**/dist/**', '**/node_modules/**', '**/generated/**', 'results/**', '**/*.js', '**/*.mjs'] },
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
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  // The bench's folders are its stages; tools/bench/rooms.js says which may import which.
  {
    files: ['tools/bench/src/**/*.ts'],
    plugins: { bench: benchRooms.plugin },
    rules: { 'bench/rooms': 'error' },
  },
];
