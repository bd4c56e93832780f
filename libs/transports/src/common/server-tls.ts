import { serverTlsOptions, type Settings } from '@bench/config';

/** A listener's TLS options under the app's security (BENCH_SECURITY): TLS 1.3, `alpn`, client certificates under mtls, and the handshake limit. */
export function listenerTls(settings: Settings, alpn: string[]): ReturnType<typeof serverTlsOptions> & { handshakeTimeout: number } {
  return { ...serverTlsOptions(settings.security, alpn), handshakeTimeout: settings.handshakeTimeoutMs };
}
