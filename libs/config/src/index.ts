export { BROKER_KINDS, BROKER_URL_ENV, MICROSERVICE_ENV, DEFAULT_MICROSERVICES, type BrokerKind, type MicroserviceSettings } from './microservices';
export { loadSettings, DEFAULT_SETTINGS, SETTING_ENV, ConfigError, type Settings } from './settings';
export { explainListenError } from './listen-error';
export { SETTINGS, CONTROL_ACCESS } from './tokens';
export { confinement, deploymentOf, allowedCpus, countCpus, type Confinement } from './confinement';
export { runtimeInfo, kubernetesInfo, KEY_PACKAGES, KUBERNETES_ENV, type RuntimeInfo, type KubernetesInfo } from './runtime-info';
export { stopOnSignals, SHUTDOWN_GRACE_MS, exitWithParent, PARENT_PIPE_ENV } from './lifecycle';
export {
  loadControlAccess,
  isLoopbackHost,
  needsToken,
  carriesToken,
  unauthorizedBody,
  CONTROL_TOKEN_ENV,
  CONTROL_TOKEN_MIN_LENGTH,
  OPEN_ROUTES,
  type ControlAccess,
} from './control-access';
export { ProcessSampler, processSampler, costBetween, reportsGc, RSS_SAMPLE_MS, type ProcessSample, type ProcessCost, type ServerPhase } from './process-sampler';
export {
  TUNINGS,
  NEST_VARIANTS,
  tuningsFor,
  isTuned,
  ablationOf,
  ablationVariant,
  parseNestVariant,
  tuningTransports,
  grpcCodecFor,
  TUNED_CODECS,
  TUNED_CODEC_ENV,
  grpcChannelOptionsFor,
  http2WindowFor,
  listenBacklogFor,
  LISTEN_BACKLOG,
  nodeOptionsFor,
  nestVariantEnv,
  GRPC_FLOW_CONTROL_WINDOW_BYTES,
  BROKER_MESSAGE_LIMIT_BYTES,
  TCP_FRAME_LIMIT_BYTES,
  NATS_MAX_PAYLOAD_BYTES,
  brokerTuningsFor,
  type Tuning,
  type NestVariant,
  type Ablation,
  type TunedCodec,
} from './tunings';
export { BULK_MAX_BYTES, BULK_MAX_CHUNK_BYTES, BULK_DEFAULT_CHUNK_BYTES, parseBulkRequest, type BulkRequestFields } from './path-limits';
export { missingNodeOptions, warnOnMissingNodeOptions } from './node-options';
export { REQUEST_LIMITS, REPLY_LIMIT, type ByteLimit } from './message-limits';
export { CONNECTION_LIMITS, type TimeLimit } from './connection-limits';
export { type CountLimit } from './count-limit';
export { RUN_LIMITS } from './run-limits';
export { HTTP2_LIMITS } from './http2-limits';
export { limitHttp1Connections, limitHttp2Sessions } from './listener-timeouts';
export {
  SECURITY_MODES,
  SECURITY_ENV,
  PLAIN,
  TLS_MIN_VERSION,
  securityRecord,
  loadSecurity,
  refusalHint,
  serverTlsOptions,
  clientTlsOptions,
  httpScheme,
  tlsStateOf,
  logTlsStates,
  type SecurityName,
  type SecurityRecord,
  type SecuritySettings,
  type TlsState,
} from './security';
export { describeCertificate, type CertificateDescription } from './certificate-description';
export { REFUSAL_LOG, RefusalLog, logTlsRefusals, refusalReason } from './tls-refusals';
export { freePort } from './free-port';
