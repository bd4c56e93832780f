import * as fs from 'node:fs';
import * as path from 'node:path';

export type HelperName = 'forwarder' | 'probe-server' | 'probe-client';

/**
 * The compiled helper script to run with node inside a namespace. From the build (dist/network/stage/helpers) it is
 * the sibling file; from the sources (tests under ts-jest) it is the bench's build output.
 */
export function helperScript(name: HelperName): string {
  const candidates = [path.join(__dirname, `${name}.js`), path.resolve(__dirname, '../../../../dist/network/stage/helpers', `${name}.js`)];
  const found = candidates.find((file) => fs.existsSync(file));
  if (!found) throw new Error(`the network helper ${name}.js is not built: run npx nx run bench:build`);
  return found;
}
