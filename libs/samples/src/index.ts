export { buildRow, buildRows, SAMPLE_COLUMNS, type SampleRow } from './row';
export { verifyReply, type ReplyCheck } from './verify';
