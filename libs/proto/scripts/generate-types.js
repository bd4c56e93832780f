#!/usr/bin/env node
// Generates TypeScript types for every .proto in proto/ with @grpc/proto-loader's own generator,
// using the same loader options the servers and clients load the protos with (loader-options.json).
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const libRoot = path.resolve(__dirname, '..');
const protoDir = path.resolve(libRoot, '../../proto');
const outDir = path.join(libRoot, 'src/generated');
const options = JSON.parse(fs.readFileSync(path.join(libRoot, 'src/loader-options.json'), 'utf8'));

const flags = [];
for (const [key, value] of Object.entries(options)) {
  if (key.startsWith('/')) continue;
  if (value === true) flags.push(`--${key}`);
  else if (typeof value === 'string') flags.push(`--${key}=${value}`);
}
const protos = fs.readdirSync(protoDir).filter((f) => f.endsWith('.proto')).sort();
const bin = require.resolve('@grpc/proto-loader/build/bin/proto-loader-gen-types.js');

fs.rmSync(outDir, { recursive: true, force: true });
execFileSync(
  process.execPath,
  [bin, ...flags, '--grpcLib=@grpc/grpc-js', `--includeDirs=${protoDir}`, `--outDir=${outDir}`, ...protos],
  { stdio: 'inherit', cwd: protoDir },
);
console.log(`generated types for ${protos.join(', ')} into ${path.relative(process.cwd(), outDir)}`);
