export { buildRow, buildRows, buildRowRange, STREAM_CHUNK_ROWS, SAMPLE_COLUMNS, type SampleRow } from './row';
export { verifyReply, type ReplyCheck } from './verify';
export { buildEchoContent, ECHO_MAX_CONTENT, USER_ID_RANGE } from './echo';
