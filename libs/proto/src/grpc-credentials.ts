import type { SecureServerOptions } from 'node:http2';
import { createSecureContext, type SecureContextOptions } from 'node:tls';
import { ChannelCredentials, ServerCredentials } from '@grpc/grpc-js';
import { clientTlsOptions, securityRecord, serverTlsOptions, type SecuritySettings } from '@bench/config';

/**
 * A grpc-js server's credentials under the app's security: insecure (plain), TLS with the server's
 * certificate, or that plus a required, verified client certificate (mtls). grpc-js offers ALPN h2 itself.
 * Under TLS a connection must finish its TLS handshake within `handshakeMs` (HANDSHAKE_TIMEOUT_MS, as
 * every other listener); node:tls's default is 120 s, and grpc-js offers no option for it.
 */
export function grpcServerCredentials(security: SecuritySettings, handshakeMs: number): ServerCredentials {
  if (!securityRecord(security.mode).tls) return ServerCredentials.createInsecure();
  const { ca, cert, key, requestCert } = serverTlsOptions(security, ['h2']);
  return withHandshakeTimeout(ServerCredentials.createSsl(ca, [{ cert_chain: cert, private_key: key }], requestCert), handshakeMs);
}

/**
 * grpc-js builds its TLS server from a credential's constructor options (spread into
 * http2.createSecureServer's), so a credential that adds `handshakeTimeout` to createSsl's sets node:tls's
 * handshake limit; the secure context is createSsl's own.
 */
class HandshakeLimitedCredentials extends ServerCredentials {
  constructor(constructorOptions: SecureServerOptions, contextOptions: SecureContextOptions) {
    super(constructorOptions, contextOptions);
  }

  override _equals(other: ServerCredentials): boolean {
    return other === this;
  }
}

function withHandshakeTimeout(credentials: ServerCredentials, handshakeMs: number): ServerCredentials {
  const constructorOptions = credentials._getConstructorOptions();
  const contextOptions = credentials._getSecureContextOptions();
  if (!constructorOptions || !contextOptions) throw new Error('grpc-js TLS credentials without options: the handshake limit cannot be applied');
  return new HandshakeLimitedCredentials({ ...constructorOptions, handshakeTimeout: handshakeMs }, contextOptions);
}

/**
 * A grpc-js channel's credentials: insecure, or TLS 1.3 only, trusting the run's CA, with the client's
 * certificate when it has one (mtls). From a secure context, the one way grpc-js takes a minimum version.
 */
export function grpcChannelCredentials(security: SecuritySettings): ChannelCredentials {
  if (!securityRecord(security.mode).tls) return ChannelCredentials.createInsecure();
  return ChannelCredentials.createFromSecureContext(createSecureContext(clientTlsOptions(security)));
}
