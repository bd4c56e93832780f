// One colour and one line style per transport, from the Okabe–Ito palette (safe for the common forms
// of colour blindness); the dash and marker shape repeat the distinction for greyscale prints.
import type { Transport } from '../../model';
import type { PhaseKey } from '../breakdown';

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

/** Transports this report knows a style for, falling back to grey for any later addition. */
export function styleOf(transport: string): TransportStyle {
  return (TRANSPORT_STYLE as Record<string, TransportStyle | undefined>)[transport] ?? { colour: '#999999', dash: '2 2', marker: 'circle' };
}
