import * as fs from 'node:fs';
import * as path from 'node:path';

// The image's hygiene, checked offline (bench:compose-check builds it on a real engine): what the build
// context leaves out (.dockerignore, with Docker's matching rules for the patterns it uses) and a base
// image pinned by digest.
const ROOT = path.resolve(__dirname, '../../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** A .dockerignore pattern as Docker reads it: from the context's root, `*` within a path part, `**` across parts, a match excludes all below it. */
function patternToRegExp(pattern: string): RegExp {
  const body = pattern
    .replace(/^\/+|\/+$/g, '')
    .split('**')
    .map((part) => part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]'))
    .join('.*');
  return new RegExp(`^${body}(/.*)?$`);
}

function ignored(file: string, patterns: readonly string[]): boolean {
  let out = false;
  for (const pattern of patterns) {
    const negated = pattern.startsWith('!');
    if (patternToRegExp(negated ? pattern.slice(1) : pattern).test(file)) out = !negated;
  }
  return out;
}

describe('the image', () => {
  const patterns = read('.dockerignore')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));

  it.each(['.git/HEAD', '.git', 'results/2026-11-24T10-19-12Z/results.json', 'results/latest', '.env', '.env.local', 'node_modules/nx/package.json', 'apps/client/dist/main.js', 'apps/client/node_modules/x', 'deploy/k8s/.run.AbC123/kustomization.yaml', 'tools/go-reference/gen/samplepb/sample.pb.go', 'coverage/lcov.info', '.ci/run'])(
    'leaves %s out of the build context',
    (file) => expect(ignored(file, patterns)).toBe(true),
  );

  it.each(['package.json', 'package-lock.json', 'nx.json', 'tsconfig.base.json', 'apps/client/src/main.ts', 'libs/config/src/lifecycle.ts', 'proto/sample.proto', 'tools/bench/src/main.ts', 'tools/go-reference/build.sh', 'deploy/k8s/bench-job.sh', 'tools/delayer/project.json'])(
    'keeps %s, which the build or the image runs',
    (file) => {
      expect(fs.existsSync(path.join(ROOT, file))).toBe(true);
      expect(ignored(file, patterns)).toBe(false);
    },
  );

  it('starts every stage from one Node 24 base pinned by digest, with how to update it', () => {
    const dockerfile = read('Dockerfile');
    const base = /^ARG NODE_IMAGE=(\S+)$/m.exec(dockerfile)?.[1];
    expect(base).toMatch(/^node:24\.\d+\.\d+-[a-z]+-slim@sha256:[0-9a-f]{64}$/);
    const froms = dockerfile.match(/^FROM .*$/gm);
    expect(froms).toEqual(['FROM ${NODE_IMAGE} AS build', 'FROM ${NODE_IMAGE}']);
    expect(dockerfile).toContain('docker buildx imagetools inspect');
    // The commit a run records, now that .git stays out.
    expect(dockerfile).toMatch(/^ARG GIT_COMMIT=/m);
    expect(dockerfile).toContain('GIT_COMMIT=${GIT_COMMIT}');
  });
});
