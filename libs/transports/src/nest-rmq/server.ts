import { ServerRMQ, type MicroserviceOptions } from '@nestjs/microservices';
import type { Settings } from '@bench/config';
import { errorPacket, refusalPacket, replyingRefusals, UNAVAILABLE, type ReplyPacket } from '../common/broker-refusals';
import { rmqOptions } from './options';

/** A reply handed to the channel: where it goes, its correlation id and its size, as RabbitMQ names a message it refuses by its size. */
interface HandedReply {
  replyTo: string;
  correlationId: string;
  bytes: number;
}

/** How many replies in flight are kept to match a refusal against (a refusal closes the channel, so it names one of the last). */
const HANDED_KEPT = 64;

/**
 * The replies handed to the channel wrapper whose fate is not known yet: taken out when the broker has them
 * (the publish confirmed), when a refusal names one by its size, or when it is answered as lost; a reply is
 * answered once, by whichever comes first.
 */
export class HandedReplies {
  private readonly replies: HandedReply[] = [];

  hand(reply: HandedReply): HandedReply {
    this.replies.push(reply);
    if (this.replies.length > HANDED_KEPT) this.replies.shift();
    return reply;
  }

  /** The last reply of `bytes` bytes, taken out; null when none is waiting. */
  takeBySize(bytes: number): HandedReply | null {
    const i = this.replies.map((reply) => reply.bytes).lastIndexOf(bytes);
    return i < 0 ? null : this.replies.splice(i, 1)[0];
  }

  /** Takes `reply` out: true when it was still waiting (nobody has answered it). */
  take(reply: HandedReply): boolean {
    const i = this.replies.indexOf(reply);
    if (i >= 0) this.replies.splice(i, 1);
    return i >= 0;
  }
}

/** The error reply for a reply the connection lost before the broker took it: UNAVAILABLE, its size and why. */
export function lostReplyPacket(bytes: number, reason: string): ReplyPacket {
  return errorPacket(UNAVAILABLE, `RabbitMQ did not take the reply (${bytes.toLocaleString('en-US')} bytes): ${reason}`);
}

/** The size RabbitMQ's refusal names: `PRECONDITION_FAILED - message size 144000000 is larger than configured max size 134217728`. */
export function refusedSize(reason: string): number | null {
  const size = /message size (\d+) is larger than/.exec(reason)?.[1];
  return size === undefined ? null : Number(size);
}

/** The parts of amqp-connection-manager's ChannelWrapper and connection manager used here. */
interface Wrapper {
  sendToQueue(queue: string, content: Buffer, options?: { correlationId?: string }): Promise<unknown> | unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  once(event: 'connect', listener: () => void): unknown;
}
interface Manager {
  isConnected(): boolean;
  reconnect(): void;
}

/**
 * Nest's RabbitMQ server, a reply its broker refuses answered with the broker's reason (common/broker-refusals.ts).
 *
 * A reply over RabbitMQ's `max_message_size` (128 MiB at its defaults) is refused after it left: the broker
 * closes server-b's channel with `PRECONDITION_FAILED - message size … is larger than configured max size …`.
 * amqplib emits that as an `'error'` on its channel, which neither Nest's ServerRMQ nor amqp-connection-manager's
 * ChannelWrapper listens to, so it ended server-b's process (blog ①-3, run 2026-11-29T01-29-12Z), and the
 * wrapper would not open a new channel before the connection itself reconnected. Here the error is heard: the
 * refused reply (found by the size the broker names) is answered with an error reply carrying the broker's
 * reason, and the connection is opened again at once so that server-b consumes and answers the next calls.
 * Across a network stage the broker may reset the connection while a reply over its limit is still being
 * written, before any refusal is read (blog ①-3 at region, run 2026-11-29T09-02-59Z: `write ECONNRESET`, the
 * caller waited its 110-s deadline): a reply whose publish is rejected is answered once the channel is open
 * again, UNAVAILABLE with its size and the reason, unless a refusal answered it first.
 */
class RefusalReplyingServerRMQ extends ServerRMQ {
  private readonly handed = new HandedReplies();
  private guarded: Wrapper | null = null;

  override sendMessage<T = unknown>(message: T, replyTo: unknown, correlationId: string, context: Parameters<ServerRMQ['sendMessage']>[3]): void {
    const send = (packet: Record<string, unknown>) => super.sendMessage(packet, replyTo, correlationId, context);
    replyingRefusals(send, 'RabbitMQ')(message as Record<string, unknown>);
  }

  override async setupChannel(channel: Parameters<ServerRMQ['setupChannel']>[0], callback: () => void): Promise<void> {
    channel.on('error', (error: unknown) => this.channelRefused(error));
    this.guardWrapper();
    return super.setupChannel(channel, callback);
  }

  /** Remembers each reply handed to the channel wrapper, and keeps its promise (rejected when the wrapper closes) from going unhandled. */
  private guardWrapper(): void {
    const wrapper = this.channel as unknown as Wrapper | null;
    if (!wrapper || this.guarded === wrapper) return;
    this.guarded = wrapper;
    const send = wrapper.sendToQueue.bind(wrapper);
    wrapper.sendToQueue = (queue, content, options) => {
      const reply = this.handed.hand({ replyTo: queue, correlationId: options?.correlationId ?? '', bytes: content.length });
      const sent = send(queue, content, options);
      if (sent instanceof Promise) sent.then(() => this.handed.take(reply), (error: unknown) => this.replyLost(reply, error));
      return sent;
    };
    wrapper.on('error', (error) => console.warn(`server-b: RabbitMQ channel error: ${reasonOf(error)}`));
  }

  /** The broker closed the channel: answers the reply it refused (when it names one) with its reason, and opens the connection again. */
  private channelRefused(error: unknown): void {
    const reason = reasonOf(error);
    console.warn(`server-b: RabbitMQ closed the channel: ${reason}`);
    const size = refusedSize(reason);
    const reply = size === null ? null : this.handed.takeBySize(size);
    // Sent once the new channel is open (the closing one would drop it); the caller's own channel is untouched.
    if (reply) this.onceOpen(() => this.answer(reply, refusalPacket('RabbitMQ', reason)));
    const manager = this.server as unknown as Manager | null;
    if (manager?.isConnected()) manager.reconnect();
  }

  /** A reply whose publish was rejected: answered as lost once the channel is open again, unless a refusal has answered it by then. */
  private replyLost(reply: HandedReply, error: unknown): void {
    const reason = reasonOf(error);
    console.warn(`server-b: a RabbitMQ reply was not sent: ${reason}`);
    this.onceOpen(() => {
      if (this.handed.take(reply)) this.answer(reply, lostReplyPacket(reply.bytes, reason));
    });
  }

  private onceOpen(then: () => void): void {
    (this.channel as unknown as Wrapper).once('connect', then);
  }

  private answer(reply: HandedReply, packet: ReplyPacket): void {
    super.sendMessage(packet, reply.replyTo, reply.correlationId, undefined as never);
  }
}

const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** server-b's binding of nest-rmq: Nest's RabbitMQ transport on the broker at RABBITMQ_URL, Nest's defaults. */
export function nestRmqServer(settings: Settings): MicroserviceOptions {
  const rmq = rmqOptions(settings);
  if (!rmq.ok) throw new Error(`nest-rmq: ${rmq.reason}`);
  return { strategy: new RefusalReplyingServerRMQ(rmq.options) };
}
