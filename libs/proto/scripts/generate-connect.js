#!/usr/bin/env node
// Generates connect-es code for proto/sample.proto (issue #23's Connect transports) with buf and
// protoc-gen-es, both from the npm registry (@bufbuild/buf ships its binary in the package): the
// message schemas and the SampleService descriptor that @connectrpc/connect serves and calls. Output:
// src/generated/connect/ (git-ignored, never edited by hand); run by `nx run proto:generate`.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const libRoot = path.resolve(__dirname, '..');
const workspaceRoot = path.resolve(libRoot, '../..');
const outDir = path.join(libRoot, 'src/generated/connect');
const bin = path.join(workspaceRoot, 'node_modules/.bin');

fs.rmSync(outDir, { recursive: true, force: true });
execFileSync(path.join(bin, 'buf'), ['generate', 'proto', '--path', 'proto/sample.proto', '--template', path.relative(workspaceRoot, path.join(libRoot, 'buf.gen.yaml'))], {
  stdio: 'inherit',
  cwd: workspaceRoot,
  // buf finds the local plugin protoc-gen-es on PATH.
  env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` },
});
console.log(`generated connect-es code for proto/sample.proto into ${path.relative(process.cwd(), outDir)}`);
