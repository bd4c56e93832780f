// Runs `buf generate` for proto/sample.proto with one buf.gen template, after emptying the template's
// output folder (generated code is rebuilt whole, never edited). buf comes from the npm registry
// (@bufbuild/buf ships its binary in the package) and finds each template's local plugin on PATH, in
// node_modules/.bin.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const libRoot = path.resolve(__dirname, '..');
const workspaceRoot = path.resolve(libRoot, '../..');
const bin = path.join(workspaceRoot, 'node_modules/.bin');

/** Generates into src/generated/<outName>/ with the template libs/proto/<template>. */
function bufGenerate(template, outName, what) {
  const outDir = path.join(libRoot, 'src/generated', outName);
  fs.rmSync(outDir, { recursive: true, force: true });
  execFileSync(path.join(bin, 'buf'), ['generate', 'proto', '--path', 'proto/sample.proto', '--template', path.relative(workspaceRoot, path.join(libRoot, template))], {
    stdio: 'inherit',
    cwd: workspaceRoot,
    env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` },
  });
  console.log(`generated ${what} for proto/sample.proto into ${path.relative(process.cwd(), outDir)}`);
}

module.exports = { bufGenerate };
