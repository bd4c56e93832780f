import { X509Certificate } from 'node:crypto';
import { ConfigError } from './config-error';

/**
 * What a certificate is, as provenance and GET /bench/info record it: who it names, who signed it, when
 * it is valid, its public key's type and its fingerprint. Never its bytes, and never a private key:
 * results folders get shared, and the fingerprint is enough to tell which certificate a run used.
 */
export interface CertificateDescription {
  subject: string;
  issuer: string;
  validFrom: string;
  validTo: string;
  /** The public key's algorithm and size: `ec P-256`, `rsa 2048`, `ed25519`. */
  keyType: string;
  /** SHA-256 of the DER, colon-separated hex (what `openssl x509 -fingerprint -sha256` prints). */
  fingerprint256: string;
}

/** The first certificate of a PEM file's contents, described; a file without one is a ConfigError naming `variable`. */
export function describeCertificate(pem: Buffer, variable: string): CertificateDescription {
  const certificate = parseCertificate(pem, variable);
  return {
    subject: oneLine(certificate.subject),
    issuer: oneLine(certificate.issuer),
    validFrom: new Date(certificate.validFrom).toISOString(),
    validTo: new Date(certificate.validTo).toISOString(),
    keyType: keyTypeOf(certificate),
    fingerprint256: certificate.fingerprint256,
  };
}

/** The certificate in `pem`; the error names the variable, never the bytes. */
export function parseCertificate(pem: Buffer, variable: string): X509Certificate {
  try {
    return new X509Certificate(pem);
  } catch {
    throw new ConfigError(`${variable} holds no PEM certificate`);
  }
}

function keyTypeOf(certificate: X509Certificate): string {
  const key = certificate.publicKey;
  const details = key.asymmetricKeyDetails ?? {};
  const size = details.namedCurve ? CURVE_NAMES[details.namedCurve] ?? details.namedCurve : details.modulusLength;
  return [key.asymmetricKeyType ?? 'unknown', size].filter((part) => part !== undefined).join(' ');
}

/** OpenSSL's curve names as the NIST names certificates are usually described by. */
const CURVE_NAMES: Readonly<Record<string, string>> = { prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521' };

/** X509Certificate gives a distinguished name one attribute a line. */
function oneLine(name: string): string {
  return name.split('\n').filter(Boolean).join(', ');
}
