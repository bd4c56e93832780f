#!/usr/bin/env node
// Generates ts-proto's codec for proto/sample.proto with buf and protoc-gen-ts_proto (issue #18's codec
// evaluation, docs/codecs.md): plain interfaces with encode/decode functions. Output:
// src/generated/ts-proto/ (git-ignored, never edited by hand); run by `nx run proto:generate`.
'use strict';
const { bufGenerate } = require('./buf-generate');

bufGenerate('buf.gen.ts-proto.yaml', 'ts-proto', "ts-proto's codec");
