/**
 * The words a payload builder describes its data with. A shape is plain data, so one description
 * gives both the .proto message (proto.ts, written by `nx run payloads:generate`) and the objects
 * both servers send (build.ts): the two cannot drift apart.
 *
 * Only proto3 types whose values survive JSON and protobuf unchanged are offered: int32 and double
 * are exact JavaScript numbers either way (int64 would arrive as a string from proto-loader, float
 * would lose digits), so replies can be checked for equality on both transports.
 */
export type Int32Field = { readonly kind: 'int32' };
export type DoubleField = { readonly kind: 'double' };
export type BoolField = { readonly kind: 'bool' };
export type StringField = { readonly kind: 'string'; readonly length: number };
export type ScalarField = Int32Field | DoubleField | BoolField | StringField;

export type Fields = Readonly<Record<string, Field>>;

export interface MessageShape<F extends Fields = Fields> {
  readonly kind: 'message';
  /** The protobuf message name (PascalCase, unique within the payload). */
  readonly name: string;
  /** In declaration order: the order gives the field numbers 1, 2, 3, … */
  readonly fields: F;
}

export interface RepeatedField<Of extends ScalarField | MessageShape = ScalarField | MessageShape> {
  readonly kind: 'repeated';
  readonly of: Of;
  /** Elements in every built item. */
  readonly count: number;
}

export type Field = ScalarField | MessageShape | RepeatedField;

/** The JavaScript value a field is built as (and decoded to, on both transports). */
export type ValueOf<F extends Field> = F extends { kind: 'int32' | 'double' }
  ? number
  : F extends { kind: 'bool' }
    ? boolean
    : F extends { kind: 'string' }
      ? string
      : F extends MessageShape<infer Inner>
        ? { -readonly [K in keyof Inner]: ValueOf<Inner[K]> }
        : F extends RepeatedField<infer Of>
          ? ValueOf<Of>[]
          : never;

const MESSAGE_NAME = /^[A-Z][A-Za-z0-9]*$/;
const FIELD_NAME = /^[a-z][A-Za-z0-9]*$/;

function wholeNumber(what: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min) throw new Error(`${what} must be a whole number ≥ ${min}, got ${value}`);
  return value;
}

/** A 32-bit signed integer. */
export function int32(): Int32Field {
  return { kind: 'int32' };
}

/** A 64-bit float. */
export function double(): DoubleField {
  return { kind: 'double' };
}

export function bool(): BoolField {
  return { kind: 'bool' };
}

/** A string of exactly `length` characters (ASCII, so also `length` bytes on the wire). */
export function string(length: number): StringField {
  return { kind: 'string', length: wholeNumber('string length', length, 0) };
}

/** A nested message; `name` becomes its protobuf message name. */
export function message<const F extends Fields>(name: string, fields: F): MessageShape<F> {
  if (!MESSAGE_NAME.test(name)) throw new Error(`message name must be PascalCase letters and digits, got ${JSON.stringify(name)}`);
  const names = Object.keys(fields);
  if (names.length === 0) throw new Error(`message ${name} needs at least one field`);
  const bad = names.find((field) => !FIELD_NAME.test(field));
  if (bad !== undefined) throw new Error(`message ${name}: field name must be camelCase letters and digits, got ${JSON.stringify(bad)}`);
  return { kind: 'message', name, fields };
}

/** A list of `count` elements in every item (protobuf `repeated`). */
export function repeated<const Of extends ScalarField | MessageShape>(of: Of, count: number): RepeatedField<Of> {
  return { kind: 'repeated', of, count: wholeNumber('repeated count', count, 0) };
}
