// Shared jest settings: ts-jest transpiles each file on its own (isolatedModules: fast, no type-check;
// `nx run-many -t build` type-checks the sources) with decorator metadata, which Nest's DI needs.
// Workspace libs resolve to their sources, so tests never depend on a previous build.
const path = require('node:path');

module.exports = {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: path.join(__dirname, 'tsconfig.spec.json') }],
  },
  moduleNameMapper: {
    '^@bench/([a-z-]+)$': path.join(__dirname, 'libs/$1/src/index.ts'),
  },
};
