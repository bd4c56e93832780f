import { ServerRMQ, type MicroserviceOptions } from '@nestjs/microservices';
import type { Settings } from '@bench/config';
import { refusalPacket, replyingRefusals } from '../common/broker-refusals';
import { rmqOptions } from './options';

/** A reply handed to the channel: where it goes, its correlation id and its size, as RabbitMQ names a message it refuses by its size. */
interface HandedReply {
  replyTo: string;
  correlationId: string;
  bytes: number;
}

/** How many of the last replies are kept to match a refusal against (a refusal closes the channel, so it names one of the last). */
const HANDED_KEPT = 64;

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
 */
class RefusalReplyingServerRMQ extends ServerRMQ {
  private readonly handed: HandedReply[] = [];
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
      this.handed.push({ replyTo: queue, correlationId: options?.correlationId ?? '', bytes: content.length });
      if (this.handed.length > HANDED_KEPT) this.handed.shift();
      const sent = send(queue, content, options);
      if (sent instanceof Promise) sent.catch((error: unknown) => console.warn(`server-b: a RabbitMQ reply was not sent: ${reasonOf(error)}`));
      return sent;
    };
    wrapper.on('error', (error) => console.warn(`server-b: RabbitMQ channel error: ${reasonOf(error)}`));
  }

  /** The broker closed the channel: answers the reply it refused (when it names one) with its reason, and opens the connection again. */
  private channelRefused(error: unknown): void {
    const reason = reasonOf(error);
    console.warn(`server-b: RabbitMQ closed the channel: ${reason}`);
    const size = refusedSize(reason);
    const refused = size === null ? -1 : this.handed.map((reply) => reply.bytes).lastIndexOf(size);
    if (refused >= 0) {
      const [reply] = this.handed.splice(refused, 1);
      // Sent once the new channel is open (the closing one would drop it); the caller's own channel is untouched.
      (this.channel as unknown as Wrapper).once('connect', () => super.sendMessage(refusalPacket('RabbitMQ', reason), reply.replyTo, reply.correlationId, undefined as never));
    }
    const manager = this.server as unknown as Manager | null;
    if (manager?.isConnected()) manager.reconnect();
  }
}

const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** server-b's binding of nest-rmq: Nest's RabbitMQ transport on the broker at RABBITMQ_URL, Nest's defaults. */
export function nestRmqServer(settings: Settings): MicroserviceOptions {
  const rmq = rmqOptions(settings);
  if (!rmq.ok) throw new Error(`nest-rmq: ${rmq.reason}`);
  return { strategy: new RefusalReplyingServerRMQ(rmq.options) };
}
