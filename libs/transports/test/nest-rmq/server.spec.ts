import { HandedReplies, lostReplyPacket, refusedSize } from '../../src/nest-rmq/server';

describe('nest-rmq server: the reply RabbitMQ refuses', () => {
  it('reads the size RabbitMQ names when it refuses a message over max_message_size', () => {
    const reason = 'Channel closed by server: 406 (PRECONDITION-FAILED) with message "PRECONDITION_FAILED - message size 143337834 is larger than configured max size 134217728"';
    expect(refusedSize(reason)).toBe(143_337_834);
  });

  it('names no size for a channel closed for another reason', () => {
    expect(refusedSize('Channel closed by server: 404 (NOT-FOUND) with message "NOT_FOUND - no queue \'x\'"')).toBeNull();
  });
});

describe('nest-rmq server: the replies in flight', () => {
  const reply = (correlationId: string, bytes: number) => ({ replyTo: 'amq.rabbitmq.reply-to', correlationId, bytes });

  it('matches a refusal to the last reply of the size it names, once', () => {
    const handed = new HandedReplies();
    const small = handed.hand(reply('a', 10));
    const big = handed.hand(reply('b', 276_777_904));
    expect(handed.takeBySize(276_777_904)).toBe(big);
    expect(handed.takeBySize(276_777_904)).toBeNull();
    expect(handed.take(small)).toBe(true);
  });

  it('answers a lost reply only when no refusal answered it first', () => {
    const handed = new HandedReplies();
    const big = handed.hand(reply('b', 276_777_904));
    handed.takeBySize(276_777_904); // the refusal came first: its reason answers the call
    expect(handed.take(big)).toBe(false);
    const lost = handed.hand(reply('c', 276_777_904));
    expect(handed.take(lost)).toBe(true); // no refusal: answered as lost
    expect(handed.take(lost)).toBe(false);
  });

  it('keeps only the last 64 replies in flight', () => {
    const handed = new HandedReplies();
    const first = handed.hand(reply('0', 1));
    for (let i = 1; i <= 64; i++) handed.hand(reply(String(i), 1));
    expect(handed.take(first)).toBe(false);
  });

  it('answers a lost reply UNAVAILABLE with its size and the reason', () => {
    expect(lostReplyPacket(276_777_904, 'channel closed')).toEqual({ err: { code: 14, message: 'RabbitMQ did not take the reply (276,777,904 bytes): channel closed' }, isDisposed: true });
  });
});
