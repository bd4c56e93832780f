import type { Options } from '@grpc/proto-loader';
import * as raw from './loader-options.json';

type Conversion = 'String' | 'Number' | undefined;

function conversion(name: string, value: Conversion): typeof String | typeof Number | undefined {
  if (value === undefined) return undefined;
  if (value === 'String') return String;
  if (value === 'Number') return Number;
  throw new Error(`loader-options.json: ${name} must be "String" or "Number", got ${JSON.stringify(value)}`);
}

/**
 * proto-loader options for every load of our protos (server-b, client, bench, generated types).
 * The JSON file is the single source; this turns its names into the constructors proto-loader wants.
 */
export const PROTO_LOADER_OPTIONS: Options = Object.freeze({
  keepCase: raw.keepCase,
  longs: conversion('longs', raw.longs as Conversion),
  enums: conversion('enums', raw.enums as Conversion),
  defaults: raw.defaults,
  oneofs: raw.oneofs,
  includeDirs: [],
});

/** The same options in a JSON-friendly form, for provenance. */
export const PROTO_LOADER_SETTINGS = Object.freeze({
  keepCase: raw.keepCase,
  longs: raw.longs,
  enums: raw.enums,
  defaults: raw.defaults,
  oneofs: raw.oneofs,
});
