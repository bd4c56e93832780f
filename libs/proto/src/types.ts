// Re-exports of the types generated from proto/ by `nx run proto:generate` (never edited by hand).
export type { GetSamplesParam, GetSamplesParam__Output } from './generated/sample/GetSamplesParam';
export type { Sample, Sample__Output } from './generated/sample/Sample';
export type { Samples, Samples__Output } from './generated/sample/Samples';
export type { HealthCheckRequest__Output } from './generated/grpc/health/v1/HealthCheckRequest';
export type { HealthCheckResponse } from './generated/grpc/health/v1/HealthCheckResponse';
export type { ReadRequest__Output } from './generated/bench/metrics/ReadRequest';
export type { ProcessSample as ProcessSampleMessage, ProcessSample__Output as ProcessSampleMessage__Output } from './generated/bench/metrics/ProcessSample';
export type { BulkRequest, BulkRequest__Output } from './generated/bench/path/BulkRequest';
export type { BulkChunk, BulkChunk__Output } from './generated/bench/path/BulkChunk';
export type { RequestMessage as EchoRequest, RequestMessage__Output as EchoRequest__Output } from './generated/echo/RequestMessage';
export type { ResponseMessage as EchoReply, ResponseMessage__Output as EchoReply__Output } from './generated/echo/ResponseMessage';
export type { UserRequest, UserRequest__Output } from './generated/lookup/UserRequest';
export type { UserReply, UserReply__Output } from './generated/lookup/UserReply';
