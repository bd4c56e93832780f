import * as fs from 'node:fs';
import * as path from 'node:path';
import { runtimeInfo } from '../src/runtime-info';

/** The Node the project pins (package.json devDependencies.node), which npm ci installs at node_modules/.bin/node. */
const PINNED = (JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as { devDependencies: Record<string, string> })
  .devDependencies.node;

describe('runtimeInfo', () => {
  it("reports the project's pinned Node: the tests, like the apps, run on the Node npm ci brings, not the machine's own", () => {
    expect(PINNED).toMatch(/^\d+\.\d+\.\d+$/);
    const info = runtimeInfo();
    expect(info.node).toBe(`v${PINNED}`);
    expect(info.v8).toBe(process.versions.v8);
    expect(info.openssl).toBe(process.versions.openssl);
    expect(info.llhttp).toBe(process.versions.llhttp);
  });
});
