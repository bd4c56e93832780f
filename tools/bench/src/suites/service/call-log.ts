// Every call of a fault run as the caller saw it: when it was due, when it ended and how (ok, or its
// failure's kind), kept compactly by the driver and read by the bench (fault-figures.ts).

/** Flattened triples [due ms, end ms, kind index] since the run's start; kinds[0] is 'ok'. */
export interface CallLog {
  kinds: string[];
  calls: number[];
}

/** A failure's kind from its message: the gRPC status (with the socket error beneath it), the HTTP status, the socket error, or the deadline. */
export function failureKind(message: string): string {
  const grpc = /^gRPC ([A-Z_]+)/.exec(message);
  const code = /\b(E[A-Z]{3,})\b/.exec(message)?.[1];
  if (grpc) return code ? `gRPC ${grpc[1]} (${code})` : `gRPC ${grpc[1]}`;
  const http = /^HTTP (\d{3})/.exec(message);
  if (http) return `HTTP ${http[1]}`;
  if (/^timeout after/.test(message)) return 'timeout (deadline)';
  if (/^DEADLINE_EXCEEDED/.test(message)) return 'DEADLINE_EXCEEDED';
  if (/^no reply within/.test(message)) return 'no reply (abandoned after the drain)';
  if (code) return code;
  return message.slice(0, 60);
}

/** A kind that means the call hung until its deadline (or past the drain) rather than failing fast. */
export const isHung = (kind: string): boolean => /DEADLINE_EXCEEDED|^timeout \(deadline\)|^no reply/.test(kind);

export class CallRecorder {
  private readonly kinds = ['ok'];
  private readonly calls: number[] = [];
  private closed = false;

  observe(atMs: number, correctedMs: number, ok: boolean, error?: string): void {
    if (this.closed) return; // a call abandoned after the drain that ends later
    const kind = ok ? 0 : this.kindIndex(failureKind(error ?? 'failed'));
    this.calls.push(round(atMs - correctedMs), round(atMs), kind);
  }

  close(): CallLog {
    this.closed = true;
    return { kinds: this.kinds, calls: this.calls };
  }

  private kindIndex(kind: string): number {
    const i = this.kinds.indexOf(kind);
    if (i >= 0) return i;
    this.kinds.push(kind);
    return this.kinds.length - 1;
  }
}

const round = (ms: number) => Math.round(ms * 10) / 10;
