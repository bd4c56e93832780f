/** Counts reply messages and their encoded bytes as they are decoded. */
export class ReplyMeter {
  private messages = 0;
  private bytes = 0;

  record(bytes: number): void {
    this.messages += 1;
    this.bytes += bytes;
  }

  /** What was recorded since the previous take. */
  take(): { messages: number; bytes: number } {
    const taken = { messages: this.messages, bytes: this.bytes };
    this.messages = 0;
    this.bytes = 0;
    return taken;
  }
}

/**
 * Bytes of every gRPC reply this process decodes (protobuf message bodies, without the 5-byte gRPC
 * frame prefix and HTTP/2 headers). Counting happens inside the deserializer, where the buffer already
 * is, so it costs one addition and no second encode.
 */
export const grpcReplyMeter = new ReplyMeter();
