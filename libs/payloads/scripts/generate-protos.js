#!/usr/bin/env node
// Writes proto/payloads/<name>.proto for every payload in libs/payloads/src/catalog.ts, from the
// shape its builder describes (renderProto), and removes the files of payloads no longer listed.
// The payload files are TypeScript, loaded through require-ts.js.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
require('./require-ts');

const libRoot = path.resolve(__dirname, '..');
const workspaceRoot = path.resolve(libRoot, '../..');

const { PAYLOADS } = require(path.join(libRoot, 'src/catalog.ts'));
const { renderProto } = require(path.join(libRoot, 'src/proto.ts'));
const { PAYLOAD_PROTO_DIR, payloadProtoPath } = require(path.join(libRoot, 'src/paths.ts'));

fs.mkdirSync(PAYLOAD_PROTO_DIR, { recursive: true });
const written = new Set();
for (const payload of PAYLOADS) {
  const file = payloadProtoPath(payload.names.route);
  const source = `libs/payloads/src/${payload.name}/${payload.name}.payload.ts`;
  fs.writeFileSync(file, renderProto(payload, source));
  written.add(path.basename(file));
}
for (const stale of fs.readdirSync(PAYLOAD_PROTO_DIR).filter((f) => f.endsWith('.proto') && !written.has(f))) {
  fs.rmSync(path.join(PAYLOAD_PROTO_DIR, stale));
}
const names = [...written].join(', ') || 'none';
console.log(`generated ${names} into ${path.relative(workspaceRoot, PAYLOAD_PROTO_DIR)}`);
