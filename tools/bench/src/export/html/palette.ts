// One colour and one line style per transport, from the Okabe–Ito palette (safe for the common forms
// of colour blindness); the dash and marker shape repeat the distinction for greyscale prints.
import type { Transport } from '../../model';
import type { PhaseKey } from '../../analysis';

export interface TransportStyle {
  colour: string;
  /** stroke-dasharray of its line in line charts (none for solid). */
  dash: string | null;
  /** Point marker in line charts. */
  marker: 'circle' | 'square';
}

export const TRANSPORT_STYLE: Readonly<Record<Transport, TransportStyle>> = {
  json: { colour: '#0072B2', dash: null, marker: 'circle' },
  grpc: { colour: '#E69F00', dash: '6 3', marker: 'square' },
  // The decomposition's transports (docs/decomposition.md): JSON kinds in blues and purple, protobuf/gRPC kinds
  // in greens and the orange family, told apart by dash and marker too.
  'json-h2': { colour: '#56B4E9', dash: '4 2', marker: 'circle' },
  'proto-h1': { colour: '#009E73', dash: '1 3', marker: 'square' },
  'connect-json': { colour: '#CC79A7', dash: '6 2 1 2', marker: 'circle' },
  'connect-proto': { colour: '#D55E00', dash: '3 3', marker: 'square' },
  'connect-grpc': { colour: '#8C6D00', dash: '2 2', marker: 'square' },
  // Nest's microservice transports (issue #42): black and Paul Tol's muted palette (also safe for colour
  // blindness), so the family reads apart from the HTTP transports; a broker's transport is dashed.
  'nest-tcp': { colour: '#000000', dash: null, marker: 'square' },
  'nest-redis': { colour: '#882255', dash: '5 2', marker: 'circle' },
  'nest-nats': { colour: '#117733', dash: '5 2', marker: 'square' },
  'nest-rmq': { colour: '#332288', dash: '5 2', marker: 'circle' },
  'nest-mqtt': { colour: '#AA4499', dash: '5 2', marker: 'square' },
  'nest-kafka': { colour: '#44AA99', dash: '5 2', marker: 'circle' },
};

/**
 * The suites' variants: gRPC kinds in the transports' orange family, HTTP/1.1 kinds in blue ones;
 * a new connection per request is drawn dotted, a stream dashed finer than unary.
 */
export const SERIES_STYLE: Readonly<Record<string, TransportStyle>> = {
  'grpc-unary': TRANSPORT_STYLE.grpc,
  'grpc-bidi': { colour: '#D55E00', dash: '2 2', marker: 'square' },
  'rest-json': TRANSPORT_STYLE.json,
  'rest-protobuf': { colour: '#56B4E9', dash: null, marker: 'circle' },
  'json-keepalive': TRANSPORT_STYLE.json,
  'json-new-connection': { colour: '#0072B2', dash: '1 3', marker: 'circle' },
  'protobuf-keepalive': { colour: '#56B4E9', dash: null, marker: 'circle' },
  'protobuf-new-connection': { colour: '#009E73', dash: '1 3', marker: 'circle' },
  'json-gzip': { colour: '#009E73', dash: '1 3', marker: 'circle' },
  protobuf: TRANSPORT_STYLE.grpc,
  'protobuf-fast': { colour: '#D55E00', dash: '2 2', marker: 'square' },
};

/**
 * The parts of a call in the phases chart, from the same palette but not the transports' blue and
 * orange, so a segment is never read as a transport; the remainder (not a codec) is a neutral grey.
 */
export const PHASE_COLOUR: Readonly<Record<PhaseKey, string>> = {
  build: '#009E73',
  encode: '#D55E00',
  decode: '#CC79A7',
  remainder: '#C4C4C4',
};

/** Ink for axes, labels and the blog's markers. */
export const INK = '#222222';
export const MUTED = '#666666';
export const GRID = '#e3e3e3';
export const FAILED = '#b00020';

/** Transports and series this report knows a style for, falling back to grey for any later addition. */
export function styleOf(transport: string): TransportStyle {
  return (TRANSPORT_STYLE as Record<string, TransportStyle | undefined>)[transport] ?? SERIES_STYLE[transport] ?? { colour: '#999999', dash: '2 2', marker: 'circle' };
}
