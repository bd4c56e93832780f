// security/: the throwaway CA of a run (certificates.ts); the modes themselves are libs/config SECURITY_MODES.
export {
  makeCertificates,
  makeFaultyServerCertificate,
  makeFaultyClientCertificate,
  removeCertificates,
  sweepCertificates,
  opensslMissing,
  sanOf,
  CertificateError,
  RunCertificates,
  WRONG_NAME,
  OPENSSL_INSTALL,
  type CertificateSet,
  type KeyPair,
  type ServerIdentity,
  type FaultyCertificate,
  type FaultyClientCertificate,
} from './certificates';
