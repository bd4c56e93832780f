// Shared jest settings: SWC compiles TypeScript with decorator metadata (Nest's DI needs it), and
// workspace libs resolve to their sources so tests never depend on a previous build.
const path = require('node:path');

module.exports = {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          target: 'es2022',
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleNameMapper: {
    '^@bench/([a-z-]+)$': path.join(__dirname, 'libs/$1/src/index.ts'),
  },
};
