// Security of the calls (issue #34): the throwaway certificate authority of one run.
export {
  makeCertificates,
  makeFaultyServerCertificate,
  removeCertificates,
  sweepCertificates,
  opensslMissing,
  sanOf,
  CertificateError,
  OPENSSL_INSTALL,
  WRONG_NAME,
  type CertificateSet,
  type KeyPair,
  type ServerIdentity,
  type FaultyCertificate,
} from './certificates';
