import { createSecureContext } from 'node:tls';
import { ChannelCredentials, ServerCredentials } from '@grpc/grpc-js';
import { clientTlsOptions, securityRecord, serverTlsOptions, type SecuritySettings } from '@bench/config';

/**
 * A grpc-js server's credentials under the app's security: insecure (plain), TLS with the server's
 * certificate, or that plus a required, verified client certificate (mtls). grpc-js offers ALPN h2 itself.
 */
export function grpcServerCredentials(security: SecuritySettings): ServerCredentials {
  if (!securityRecord(security.mode).tls) return ServerCredentials.createInsecure();
  const { ca, cert, key, requestCert } = serverTlsOptions(security, ['h2']);
  return ServerCredentials.createSsl(ca, [{ cert_chain: cert, private_key: key }], requestCert);
}

/**
 * A grpc-js channel's credentials: insecure, or TLS 1.3 only, trusting the run's CA, with the client's
 * certificate when it has one (mtls). From a secure context, the one way grpc-js takes a minimum version.
 */
export function grpcChannelCredentials(security: SecuritySettings): ChannelCredentials {
  if (!securityRecord(security.mode).tls) return ChannelCredentials.createInsecure();
  return ChannelCredentials.createFromSecureContext(createSecureContext(clientTlsOptions(security)));
}
