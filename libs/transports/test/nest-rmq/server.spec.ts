import { refusedSize } from '../../src/nest-rmq/server';

describe('nest-rmq server: the reply RabbitMQ refuses', () => {
  it('reads the size RabbitMQ names when it refuses a message over max_message_size', () => {
    const reason = 'Channel closed by server: 406 (PRECONDITION-FAILED) with message "PRECONDITION_FAILED - message size 143337834 is larger than configured max size 134217728"';
    expect(refusedSize(reason)).toBe(143_337_834);
  });

  it('names no size for a channel closed for another reason', () => {
    expect(refusedSize('Channel closed by server: 404 (NOT-FOUND) with message "NOT_FOUND - no queue \'x\'"')).toBeNull();
  });
});
