/** gRPC's RESOURCE_EXHAUSTED, the code every transport here answers a message over a limit with. */
const RESOURCE_EXHAUSTED = 8;
/** gRPC's UNAVAILABLE: a reply the connection lost on its way to the broker. */
export const UNAVAILABLE = 14;

/** A reply packet as Nest's servers publish it (response, err, isDisposed; the id is assigned by the publisher). */
export type ReplyPacket = Record<string, unknown>;

/** The error reply a call is answered with instead of its reply: a gRPC code and why. */
export function errorPacket(code: number, message: string): ReplyPacket {
  return { err: { code, message }, isDisposed: true };
}

/** The error reply a refused reply is answered with: RESOURCE_EXHAUSTED, and the broker's own reason. */
export function refusalPacket(broker: string, reason: string): ReplyPacket {
  return errorPacket(RESOURCE_EXHAUSTED, `${broker} refused the reply: ${reason}`);
}

/**
 * Wraps a Nest server's reply publisher so that a reply the broker refuses (NATS's max_payload, Kafka's
 * message.max.bytes, …) is answered with an error reply carrying the broker client's own reason, instead
 * of the refusal escaping Nest's send loop as an unhandled rejection, which would end server-b's process,
 * and the caller waiting to its deadline. The refusal is logged once per reply.
 */
export function replyingRefusals<P extends (packet: ReplyPacket) => unknown>(publish: P, broker: string): P {
  const refused = (error: unknown): unknown => {
    const reason = error instanceof Error ? error.message : String(error);
    console.warn(`server-b: ${broker} refused a reply: ${reason}`);
    try {
      const sent = publish(refusalPacket(broker, reason));
      return sent instanceof Promise ? sent.catch(() => undefined) : sent;
    } catch {
      return undefined; // the broker refuses even the error reply: the caller's deadline ends its wait
    }
  };
  return ((packet: ReplyPacket) => {
    try {
      const sent = publish(packet);
      return sent instanceof Promise ? sent.catch(refused) : sent;
    } catch (error) {
      return refused(error);
    }
  }) as P;
}

/** The broker URL a transport needs, or the reason it cannot be made (naming the variable, and how a run gets one). */
export function brokerUrl(url: string | null, variable: string): { ok: true; url: string } | { ok: false; reason: string } {
  if (url !== null) return { ok: true, url };
  return { ok: false, reason: `no broker: ${variable} is not set (bench:all starts the broker a transport needs; install them with npx nx run bench:brokers -- install)` };
}
