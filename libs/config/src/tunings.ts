import { ConfigError } from './config-error';
import type { BrokerKind } from './microservices';

/** One change the tuned Nest variant makes to the blog's configuration, and why. */
export interface Tuning {
  id: string;
  app: 'client' | 'server-a' | 'server-b' | 'server-b + client' | 'server-a + client' | 'server-a + server-b + client' | 'broker' | 'broker + client' | 'broker + server-b + client';
  /** The transports it changes, comma-separated (libs/transports TRANSPORT_NAMES). */
  transport: string;
  change: string;
  why: string;
  /**
   * Node/V8 options the tuning needs at process start (NODE_OPTIONS): an app cannot set them for itself,
   * so whoever starts the apps passes them (the bench through nestVariantEnv; docker-compose and
   * Kubernetes through NODE_OPTIONS, docs/variants.md).
   */
  nodeOptions?: string;
  /**
   * The broker whose own config the tuning changes (NATS max_payload, …): a run starts that broker once more
   * with the tuning's config for the variants that apply it (tools/bench run/run-brokers.ts), and records it.
   */
  broker?: BrokerKind;
}

/** Every tuning, named and justified in one place (the README's table is this list). */
export const TUNINGS: readonly Tuning[] = Object.freeze([
  {
    id: 'undici-pool',
    app: 'client',
    transport: 'json, proto-h1',
    change: 'HTTP/1.1 calls (JSON, and protobuf bodies for proto-h1) go through one undici Pool (up to MAX_PARALLEL kept-alive connections) instead of @nestjs/axios',
    why:
      "Node's default agent, which axios uses, keeps at most 256 idle sockets, so every burst wider than that closes the " +
      "rest and reopens them on the next burst; and axios adds per-request work (config merging, interceptors, redirects) " +
      'that a service-to-service call does not need',
  },
  {
    id: 'stream-large-replies',
    app: 'client',
    transport: 'grpc',
    change:
      'replies of 20,000 rows or more are fetched with GetSamplesStream (10,000-row messages) and concatenated; server-b ' +
      'builds the next message only when the call has sent all but one (back-pressure)',
    why:
      'one ~150 MB message is built and encoded whole before its first byte leaves, held in memory twice and decoded ' +
      'whole after its last byte arrives; chunks let building, encoding, transfer and decoding overlap. Without ' +
      "back-pressure (a Nest Observable has none) the server builds every chunk at once and the unsent rows outlive V8's " +
      'young generation: 1M rows took 4.3–5.0 s instead of 2.2–2.6 s',
  },
  {
    id: 'stream-json-replies',
    app: 'server-a + client',
    transport: 'json, json-h2',
    change:
      'replies of 5,000 rows or more are asked for with Accept: application/x-ndjson (json: through the undici-pool client) ' +
      'and come as newline-delimited JSON, ' +
      'one JSON array of up to 1,000 rows per line; server-a builds and encodes the next 1,000 rows only when the socket has taken the previous ones ' +
      '(back-pressure), and the client parses each network chunk as it arrives; any caller that does not ask still gets ' +
      'one JSON body',
    why:
      'one ~264 MB JSON.stringify is built whole before its first byte leaves and one JSON.parse waits for its last byte; ' +
      'streamed, building, encoding, transfer and parsing overlap and the server holds one chunk, not the body. Alternating ' +
      'pairs (--runs 5 --forks 0 --visits 1): 1M rows 7,040 / 6,462 → 2,479 / 2,788 ms over json, 6,896 / 6,928 → 2,537 / ' +
      '2,870 over json-h2; 20k×4 250 / 253 → 189 / 186 ms. The threshold is the measured crossover (POST /bench/run, 200 ' +
      'calls, stream vs one body, json): 1 row 0.51 vs 0.34 ms, 2,000 rows 8.7 vs 6.7–7.7, 5,000 rows 11.9–13.0 vs ' +
      '12.7–13.8, 10,000 rows 16.1–16.8 vs 20.9–24.0. A 1,000-row array per line rather than a row per line: tuned 1M rows ' +
      '2,018 / 1,984 / 1,918 / 2,328 against 2,130 / 2,562 / 2,256 / 2,224 ms (four alternating pairs, with larger-young-generation)',
  },
  {
    id: 'fast-protobuf-codec',
    app: 'server-a + server-b + client',
    transport: 'grpc, proto-h1',
    change:
      'sample.Samples is encoded with protobufjs 8 straight from the plain rows and decoded with protobufjs 7 into message ' +
      'instances, plugged into Nest as a custom packageDefinition (libs/proto fast-codec.ts); the same codec for proto-h1 bodies',
    why:
      "proto-loader copies every row into a message (fromObject) before protobufjs 7 encodes it, and copies every decoded row " +
      'back into a plain object (toObject): two extra allocations per row that make garbage collection the biggest cost',
  },
  {
    id: 'long-keep-alive',
    app: 'server-a',
    transport: 'json, proto-h1',
    change: 'server keepAliveTimeout 65 s instead of Node\'s 5 s; the client pool drops idle sockets after 60 s',
    why:
      'with a pool that keeps sockets, a server that closes idle ones after 5 s races the client reusing them ' +
      '("socket hang up" after a long call); the server must outlive the client\'s idle timeout, as behind any load balancer',
  },
  {
    id: 'listen-backlog',
    app: 'server-a',
    transport: 'json, proto-h1',
    change:
      "server-a's listeners ask the kernel for an accept queue of LISTEN_BACKLOG (4,096) connections instead of Node's 511 " +
      '(the kernel caps it at net.core.somaxconn, 4,096 by default since Linux 5.4, per network namespace, so per pod)',
    why:
      'a burst of new connections wider than the queue (②-3: 1,000 at once, a connection each) overflows it: the kernel ' +
      'drops the handshakes it cannot queue, answers with SYN cookies, and the client waits for its retransmissions. Under ' +
      "TLS on Node 24 it resets connections: the client's ClientHello (1,608 bytes with OpenSSL 3.5's post-quantum key " +
      "share; Node 20's was 389) takes two TCP segments, and a retransmitted second segment fails the SYN-cookie check, which the " +
      'kernel answers with a reset (read ECONNRESET; docs/security.md, measured)',
  },
  {
    id: 'fastify-adapter',
    app: 'server-a',
    transport: 'json, proto-h1',
    change: "Nest's Fastify adapter (@nestjs/platform-fastify) instead of Express",
    why:
      "Express runs every request through its middleware chain and hashes every body for an ETag no service caller " +
      'uses; Fastify routes with a radix tree and serializes with less per-request work, which dominates many small calls',
  },
  {
    id: 'http2-window',
    app: 'client',
    transport: 'grpc, json-h2',
    change:
      "the client's HTTP/2 connections open with a 16 MiB stream and connection flow-control window instead of 64 KiB: gRPC " +
      'channels by the grpc-js channel option grpc-node.flow_control_window, json-h2 sessions by SETTINGS_INITIAL_WINDOW_SIZE ' +
      'plus setLocalWindowSize on the node:http2 session',
    why:
      'neither grpc-js nor node:http2 probes the bandwidth-delay product: with the default 64 KiB window a reply moves at most ' +
      '~64 KiB per round trip, so across a network a large reply waits for window updates round trip after round trip ' +
      '(measure it with bench:all --network)',
  },
  {
    id: 'lean-grpc-unary',
    app: 'client',
    transport: 'grpc',
    change:
      "unary GetSamples calls (replies under 20,000 rows, the rest stay streamed through Nest's ClientGrpc) go as node:http2 " +
      'streams of one HTTP/2 session to server-b with gRPC framing, the grpc-timeout header and the status from the ' +
      "trailers (libs/transports/src/grpc/lean-unary.ts), encoded and decoded by the variant's codec, instead of " +
      "through Nest's ClientGrpc Observables and grpc-js's per-call stack",
    why:
      'in a 1,000-call burst (②-3) the client is the bottleneck: CPU profiles show it busy for the whole burst (~150 µs of ' +
      "CPU per call), in grpc-js's call layers, node:http2 and the garbage they leave, while Nest and rxjs are ~2 % and " +
      'server-b ~55 % busy. More channels (grpc.use_local_subchannel_pool, 1–16, round-robin), grpc.enable_retries=0, ' +
      'grpc.enable_channelz=0 and a larger young generation changed nothing measurable (plain grpc-js: 120–145 ms either ' +
      "way); connect-node's gRPC client was worse (~330 ms). The same calls on node:http2 cost the client ~60 µs each: " +
      'tuned gRPC ②-3 152 / 139 → 103 / 102 ms and ②-2 12.4 / 11.5 → 7.1 / 8.1 ms (alternating pairs before / after)',
  },
  {
    id: 'tls-session-reuse',
    app: 'client',
    transport: 'json, proto-h1, json-h2, grpc, connect-json, connect-proto, connect-grpc',
    change:
      'under TLS the client keeps the last session (TLS 1.3 ticket) each server gave it and offers it on every new ' +
      'connection to that server, whichever library opens it: node:http2 sessions (json-h2, the lean unary gRPC client, ' +
      'connect-node) through their createConnection, undici pools through their connector, https.Agent through createConnection ' +
      '(libs/transports/src/common/tls-sessions.ts); grpc-js has no option for it, so its channels still handshake in full',
    why:
      'node:http2, connect-node and grpc-js keep no session, and undici and https.Agent only per pool or agent: a new ' +
      'connection (a new pool, a reconnect after the server or an idle timeout closed it) then handshakes in full, the ' +
      'server signing and the client verifying the certificate chain (and under mTLS the other way round too); resumed, ' +
      'neither certificate is sent or checked. Same round trips in TLS 1.3 (no early data here), less CPU and fewer bytes ' +
      '(docs/security.md, measured)',
  },
  {
    id: 'cached-lookup',
    app: 'client',
    transport: 'json, proto-h1, json-h2, grpc, connect-json, connect-proto, connect-grpc',
    change:
      "every connection the client opens to a server by name looks it up through one caching lookup of the process " +
      '(libs/transports cachingLookup: answers kept 30 s, lookups of a name already in flight wait for it, errors not kept) ' +
      'instead of dns.lookup: the undici pools through their connector, axios through its http/https agents, node:http2 ' +
      'sessions (json-h2, the lean unary gRPC client, connect-node) through their connect options ' +
      '(libs/transports/src/common/client-lookup.ts); grpc-js has no lookup option, its channels keep their own resolver',
    why:
      "Node's dns.lookup is getaddrinfo on libuv's 4-thread pool, asked again for every new connection: with a pod's " +
      'resolver (ndots:5, search domains) a short name costs 2 round trips and 4 DNS queries, so a burst of new ' +
      "connections queues its lookups 4 at a time (the blog's HTTP/1.1 ②-3 reopens ~840 connections per call; the tuned " +
      "pool's 1,000 at once hit undici's 10-s connect timeout, which counts the queued lookup). json-h2, " +
      "Connect and the lean unary gRPC client look up once per HTTP/2 session (a cold call's fresh connection, a " +
      "reconnect); grpc-js's channels resolve once per channel on their own. Across region+names, ②-3 (run " +
      "2026-11-28T13-00-50Z): the blog's JSON 16,518 → 600 ms (843 → 0.2 lookups per call), tuned JSON failed → 140 ms " +
      '(docs/production-path.md)',
  },
  {
    id: 'larger-young-generation',
    app: 'server-a + server-b + client',
    transport: 'json, json-h2, proto-h1, grpc, connect-json, connect-proto, connect-grpc',
    change: "every Nest process starts with V8's young generation raised from 16 MiB to 64 MiB per semi-space (NODE_OPTIONS=--max-semi-space-size=64)",
    why:
      'the big replies are garbage-collection bound: ①-3 builds, encodes, decodes and drops 1,000,000 rows in 10,000-row or ' +
      '1,000-row chunks, and with 16 MiB semi-spaces each chunk outlives a scavenge and is copied to the old generation; ' +
      'the phase breakdown puts 76–85 % of a tuned ①-3 call in client decode. Two alternating pairs (--variants tuned ' +
      '--cases 1-3,20kx4 --runs 5, without / with): gRPC ①-3 2,248 / 2,121 → 1,769 / 1,991 ms, JSON ①-3 2,388 / 2,208 → ' +
      '2,203 / 2,157 ms; 20k×4 gRPC 179 / 159 → 126 / 143 ms, JSON 206 / 159 → 143 / 151 ms',
    nodeOptions: '--max-semi-space-size=64',
  },
  {
    id: 'tcp-no-delay',
    app: 'server-b + client',
    transport: 'nest-tcp',
    change:
      "nest-tcp's sockets, the client's and server-b's, turn Nagle's algorithm off (socket.setNoDelay(true) in the " +
      "transport's socketClass, TcpOptions' own hook for the socket); Nest's TCP transport leaves it on",
    why:
      'with Nagle on, a small frame written while an earlier one is unacknowledged waits for that ACK, which the peer ' +
      "delays (Linux's delayed ACK, up to 40 ms): ten parallel one-row requests on one socket (②-1) took ~45 ms on loopback",
  },
  {
    id: 'tcp-frame-limits',
    app: 'server-b + client',
    transport: 'nest-tcp',
    change:
      "nest-tcp's JsonSocket limits raised to TCP_FRAME_LIMIT_BYTES (512 MiB): maxBufferSize (what one incoming frame may " +
      "hold, in characters) and maxSendBufferSize (what one connection may queue unsent), Nest's own JsonSocket options; " +
      "Nest's defaults are 128 Mi characters and 128 MiB",
    why:
      'a reply of 1,000,000 rows is one JSON frame of ~150 MB: at the defaults server-b queues more than maxSendBufferSize ' +
      'on the socket and Nest destroys the connection, so the call fails (measured: docs/brokers.md)',
  },
  {
    id: 'mqtt-no-delay',
    app: 'broker + server-b + client',
    transport: 'nest-mqtt',
    broker: 'mosquitto',
    change:
      "Nagle's algorithm off at both ends of every MQTT connection: Mosquitto's set_tcp_nodelay true (default false) for " +
      "its side, and setNoDelay on MQTT.js's socket at each connect in the transport's ClientMqtt and ServerMqtt for the " +
      "client's and server-b's (MQTT.js offers no option for it and leaves it on)",
    why:
      'as tcp-no-delay: ten parallel one-row requests (②-1) wait for delayed ACKs, ~45 ms on loopback; the clients\' side ' +
      'alone changed nothing measurable (run 2026-11-29T00-43-48Z: 45.1 ms with, 45.9 without): the broker\'s writes wait too',
  },
  {
    id: 'nats-max-payload',
    app: 'broker',
    transport: 'nest-nats',
    broker: 'nats',
    change:
      "the NATS server's max_payload raised from 1 MB to 64 MB, the most it can be set to (docs.nats.io, " +
      'reference/config/max_payload; max_pending raised to match); the NATS client learns the limit from the server',
    why:
      'at 1 MB a reply of 10,000 rows (①-2, 2.4 MB) is refused by the client library before it is sent. 64 MB carries ' +
      'up to ~250,000 rows; a 1,000,000-row reply (~150 MB) does not fit one NATS message at any setting',
  },
  {
    id: 'kafka-max-message',
    app: 'broker + client',
    transport: 'nest-kafka',
    broker: 'kafka',
    change:
      "the Kafka broker's message.max.bytes, replica.fetch.max.bytes and socket.request.max.bytes raised to " +
      "BROKER_MESSAGE_LIMIT_BYTES (512 MiB; defaults 1,048,588, 1 MiB and 100 MiB), its heap from 1 GB to 2 GB; the " +
      "client's and server-b's KafkaJS consumers fetch up to as much (maxBytes, maxBytesPerPartition; defaults 10 MB and 1 MB)",
    why:
      'at the defaults the broker refuses any reply over ~1 MB (①-2 on) with "The request included a message larger ' +
      'than the max message size the server will accept", and a produce request over 100 MiB is refused at the socket',
  },
  {
    id: 'kafka-no-delay',
    app: 'server-b + client',
    transport: 'nest-kafka',
    change:
      "KafkaJS's connections, the client's and server-b's, turn Nagle's algorithm off: KafkaJS's own socketFactory option " +
      "(its default factory sets keep-alive only) with setNoDelay(true) on each socket",
    why: 'as tcp-no-delay: ten parallel one-row requests (②-1) through Kafka took ~45 ms on loopback, waiting for delayed ACKs',
  },
  {
    id: 'rmq-no-delay',
    app: 'server-b + client',
    transport: 'nest-rmq',
    change:
      "the AMQP connections of the client and server-b turn Nagle's algorithm off: amqplib's socket option noDelay " +
      "(default false), given through Nest's socketOptions.connectionOptions",
    why: 'amqplib leaves Nagle on, so a small frame written while an earlier one is unacknowledged waits for its ACK (as tcp-no-delay)',
  },
  {
    id: 'redis-pubsub-buffer',
    app: 'broker',
    transport: 'nest-redis',
    broker: 'redis',
    change: "Redis's output buffer limit for Pub/Sub subscribers lifted (client-output-buffer-limit pubsub 0 0 0; default 32mb 8mb 60)",
    why:
      'Redis disconnects a subscriber whose unsent output passes 32 MB (or 8 MB for 60 s): the client subscribed to the ' +
      "replies' channel is cut off in the middle of a large reply and the call waits to its deadline",
  },
  {
    id: 'rmq-max-message-size',
    app: 'broker',
    transport: 'nest-rmq',
    broker: 'rabbitmq',
    change: "RabbitMQ's max_message_size raised from 128 MiB to 512 MiB, the most it accepts (rabbitmq.conf)",
    why: 'a message over max_message_size closes the publishing channel with PRECONDITION_FAILED: a 1,000,000-row reply is over 128 MiB',
  },
]);

/** The limit the tuned broker transports raise their message and frame limits to (tcp-frame-limits, kafka-max-message, rmq-max-message-size). */
export const BROKER_MESSAGE_LIMIT_BYTES = 512 * 1024 * 1024;

/** nest-tcp's JsonSocket limits under tcp-frame-limits (maxBufferSize counts characters: the rows' JSON is ASCII). */
export const TCP_FRAME_LIMIT_BYTES = BROKER_MESSAGE_LIMIT_BYTES;

/** The NATS server's max_payload under nats-max-payload: 64 MB, the most nats-server allows. */
export const NATS_MAX_PAYLOAD_BYTES = 64 * 1024 * 1024;

/** The tunings of `variant` that change `broker`'s own config, by id (sorted): the broker a set of its apps must reach. */
export function brokerTuningsFor(variant: NestVariant, broker: BrokerKind): string[] {
  return tuningsFor(variant)
    .filter((t) => t.broker === broker)
    .map((t) => t.id)
    .sort();
}

/** HTTP/2 flow-control window the tuned client's gRPC channels and HTTP/2 sessions open with (tuning http2-window). */
export const GRPC_FLOW_CONTROL_WINDOW_BYTES = 16 * 1024 * 1024;

/**
 * The stream and connection receive window a variant's HTTP/2 client sessions open with: the raised
 * window when tuned (http2-window), else null (node:http2's defaults: 65,535 bytes each).
 */
export function http2WindowFor(variant: NestVariant): number | null {
  return isTuned(variant, 'http2-window') ? GRPC_FLOW_CONTROL_WINDOW_BYTES : null;
}

/** Channel options of a variant's gRPC client channels: the raised window when tuned, else grpc-js's defaults. */
export function grpcChannelOptionsFor(variant: NestVariant): Record<string, number> {
  return isTuned(variant, 'http2-window') ? { 'grpc-node.flow_control_window': GRPC_FLOW_CONTROL_WINDOW_BYTES } : {};
}

/**
 * The accept queue server-a's tuned listeners ask for (tuning listen-backlog): the kernel's own default
 * cap (net.core.somaxconn), which Go's net.Listen uses as its backlog; Node's default is 511.
 */
export const LISTEN_BACKLOG = 4096;

/** The listen backlog a variant's server-a asks for: LISTEN_BACKLOG when tuned, else null (Node's default, 511). */
export function listenBacklogFor(variant: NestVariant): number | null {
  return isTuned(variant, 'listen-backlog') ? LISTEN_BACKLOG : null;
}

/**
 * The codecs the fast-protobuf-codec tuning can put in place of proto-loader's (libs/proto SAMPLES_CODECS),
 * the one it uses first: measured against each other in docs/codecs.md.
 */
export const TUNED_CODECS = ['fast', 'ts-proto', 'protobuf-es'] as const;
export type TunedCodec = (typeof TUNED_CODECS)[number];

/** Environment variable that swaps the tuned codec for another of TUNED_CODECS, to measure it in the real apps. */
export const TUNED_CODEC_ENV = 'TUNED_CODEC';

/**
 * The gRPC codec a variant's processes use for sample.* messages (and proto-h1 for its bodies):
 * proto-loader's unless the variant applies fast-protobuf-codec. Every app reads the same environment,
 * so server and client agree; loadSettings calls it once so an unknown TUNED_CODEC stops the app at start-up.
 */
export function grpcCodecFor(variant: NestVariant, env: NodeJS.ProcessEnv = process.env): TunedCodec | 'proto-loader' {
  if (!isTuned(variant, 'fast-protobuf-codec')) return 'proto-loader';
  const asked = env[TUNED_CODEC_ENV]?.trim() || TUNED_CODECS[0];
  const codec = TUNED_CODECS.find((c) => c === asked);
  if (!codec) throw new ConfigError(`${TUNED_CODEC_ENV} must be one of ${TUNED_CODECS.join(', ')}, got ${JSON.stringify(asked)}`);
  return codec;
}

/** The Nest configurations by name (README, "Variants"). */
export const NEST_VARIANTS = ['blog', 'tuned', 'blog-window'] as const;

/**
 * A Nest configuration: one of NEST_VARIANTS, or for the ablation one tuning flipped alone: the tuned
 * variant with it switched off (`tuned-without-<id>`), or the blog's with it switched on (`blog-with-<id>`).
 */
export type NestVariant = (typeof NEST_VARIANTS)[number] | `tuned-without-${string}` | `blog-with-${string}`;

/** The ablation variants' grammar: base, then the tuning it flips. */
const ABLATION = /^(tuned-without|blog-with)-(.+)$/;

export interface Ablation {
  /** What the variant starts from: tuned (all tunings on) or blog (none). */
  base: 'tuned' | 'blog';
  /** The tuning it flips. */
  tuning: Tuning;
}

/** The tuning an ablation variant flips, and its base; null for the named variants. */
export function ablationOf(variant: string): Ablation | null {
  const match = ABLATION.exec(variant);
  const tuning = match && TUNINGS.find((t) => t.id === match[2]);
  return match && tuning ? { base: match[1] === 'tuned-without' ? 'tuned' : 'blog', tuning } : null;
}

/** The variant named `text`, or null when there is none (an ablation variant must name a tuning of TUNINGS). */
export function parseNestVariant(text: string): NestVariant | null {
  return (NEST_VARIANTS as readonly string[]).includes(text) || ablationOf(text) ? (text as NestVariant) : null;
}

/** The ablation variant that flips `tuningId` from `base`: tuned without it, or blog with it. */
export function ablationVariant(base: 'tuned' | 'blog', tuningId: string): NestVariant {
  return base === 'tuned' ? `tuned-without-${tuningId}` : `blog-with-${tuningId}`;
}

/** The transports a tuning changes, from its record (libs/transports TRANSPORT_NAMES). */
export function tuningTransports(tuning: Tuning): string[] {
  return tuning.transport.split(',').map((t) => t.trim());
}

/**
 * Which tunings each named Nest variant applies: none for the blog's configuration, all for tuned, and
 * one for blog-window, so the HTTP/2 window's effect across a network is measured alone.
 */
const VARIANT_TUNINGS: Readonly<Record<(typeof NEST_VARIANTS)[number], readonly string[] | 'all'>> = { blog: [], tuned: 'all', 'blog-window': ['http2-window'] };

/** The tunings a variant applies (none for the blog's configuration). */
export function tuningsFor(variant: NestVariant): readonly Tuning[] {
  const ablation = ablationOf(variant);
  if (ablation) return TUNINGS.filter((t) => (ablation.base === 'tuned') !== (t.id === ablation.tuning.id));
  const ids = VARIANT_TUNINGS[variant as (typeof NEST_VARIANTS)[number]];
  return ids === 'all' ? TUNINGS : TUNINGS.filter((t) => ids.includes(t.id));
}

export function isTuned(variant: NestVariant, id: string): boolean {
  return tuningsFor(variant).some((t) => t.id === id);
}

/** The Node options a variant's processes must start with (its tunings' nodeOptions), space-separated; '' for none. */
export function nodeOptionsFor(variant: NestVariant): string {
  return tuningsFor(variant)
    .flatMap((t) => (t.nodeOptions ? [t.nodeOptions] : []))
    .join(' ');
}

/** The environment that starts a Nest app as `variant`: VARIANT, and NODE_OPTIONS when its tunings need any. */
export function nestVariantEnv(variant: NestVariant): Record<string, string> {
  const nodeOptions = nodeOptionsFor(variant);
  return nodeOptions ? { VARIANT: variant, NODE_OPTIONS: nodeOptions } : { VARIANT: variant };
}

