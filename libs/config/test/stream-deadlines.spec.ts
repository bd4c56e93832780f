import { streamDeadlineMs } from '../src/stream-deadlines';

describe('streamDeadlineMs', () => {
  it.each([
    [{ 'grpc-timeout': '200m' }, 200],
    [{ 'grpc-timeout': '2S' }, 2_000],
    [{ 'grpc-timeout': '1H' }, 3_600_000],
    [{ 'grpc-timeout': '5000000u' }, 5_000],
    [{ 'connect-timeout-ms': '1500' }, 1_500],
  ])('reads %j as %d ms', (headers, ms) => expect(streamDeadlineMs(headers)).toBe(ms));

  it.each([[{}], [{ 'grpc-timeout': '123456789m' }], [{ 'grpc-timeout': '2s' }], [{ 'grpc-timeout': '-1m' }], [{ 'connect-timeout-ms': '1.5' }]])(
    'finds no deadline in %j',
    (headers) => expect(streamDeadlineMs(headers)).toBeNull(),
  );
});
