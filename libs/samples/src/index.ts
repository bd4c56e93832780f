export { buildRow, buildRows, buildRowRange, STREAM_CHUNK_ROWS, SAMPLE_COLUMNS, type SampleRow } from './row';
export { verifyReply, type ReplyCheck } from './verify';
export { buildEchoContent, ECHO_MAX_CONTENT, USER_ID_RANGE } from './echo';
export { NDJSON_MEDIA_TYPE, NDJSON_FROM_ROWS, acceptsNdjson, isNdjson } from './ndjson';
export { ndjsonRowStream, encodeNdjson, NDJSON_CHUNK_ROWS, type RowStreamPhases } from './ndjson-stream';
export { NdjsonReader, readNdjson, type NdjsonRead } from './ndjson-reader';
export { REPLY_SLICE_ROWS, WHOLE_REPLY_MAX_ROWS, buildRowsSliced, encodeSliced, jsonRowsStream, jsonListStream, nextTurn, type JsonStreamOptions, samplesJsonLength } from './reply-slices';
export {
  DEADLINE_HEADER,
  ReplyAbandoned,
  abandonedReplies,
  callerSignal,
  deadlineHeader,
  noteAbandoned,
  parseDeadlineHeader,
} from './reply-deadline';
