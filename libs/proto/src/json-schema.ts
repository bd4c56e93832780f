import * as protobuf from 'protobufjs';
import { SAMPLE_PROTO } from './paths';

/** The JSON Schema subset a reply schema needs (what fast-json-stringify compiles). */
export type JsonSchema =
  | { type: 'integer' | 'number' | 'boolean' | 'string' }
  | { type: 'array'; items: JsonSchema }
  | { type: 'object'; properties: Record<string, JsonSchema>; additionalProperties: false };

/** proto3 scalars whose JSON form is a JSON number, boolean or string with the same value (64-bit ints are strings in proto3 JSON: not offered). */
const SCALARS: Readonly<Record<string, JsonSchema>> = {
  int32: { type: 'integer' },
  uint32: { type: 'integer' },
  sint32: { type: 'integer' },
  fixed32: { type: 'integer' },
  sfixed32: { type: 'integer' },
  double: { type: 'number' },
  float: { type: 'number' },
  bool: { type: 'boolean' },
  string: { type: 'string' },
};

/** A protobuf message type as the JSON Schema of its JSON form (field names as the .proto spells them, as the servers send them). */
export function messageJsonSchema(type: protobuf.Type): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const field of type.fieldsArray) {
    const resolved = field.resolve().resolvedType;
    const one = resolved instanceof protobuf.Type ? messageJsonSchema(resolved) : SCALARS[field.type];
    if (!one) throw new Error(`${type.fullName}.${field.name}: no JSON Schema for protobuf type ${field.type}`);
    properties[field.name] = field.repeated ? { type: 'array', items: one } : one;
  }
  return { type: 'object', properties, additionalProperties: false };
}

/**
 * The JSON Schema of server-a's `{ "samples": [...] }` reply, generated from sample.Samples in
 * proto/sample.proto: the one definition of a row, so the schema cannot drift from it.
 */
export function samplesReplyJsonSchema(): JsonSchema {
  return messageJsonSchema(protobuf.loadSync(SAMPLE_PROTO).lookupType('sample.Samples'));
}
