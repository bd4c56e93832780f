#!/usr/bin/env node
// Generates connect-es code for proto/sample.proto (issue #23's Connect transports) with buf and
// protoc-gen-es: the message schemas and the SampleService descriptor that @connectrpc/connect serves
// and calls. Output: src/generated/connect/ (git-ignored, never edited by hand); run by `nx run proto:generate`.
'use strict';
const { bufGenerate } = require('./buf-generate');

bufGenerate('buf.gen.yaml', 'connect', 'connect-es code');
