import type { FastifyAdapter } from '@nestjs/platform-fastify';
import { processSampler } from '@bench/config';
import { samplesReplyJsonSchema } from '@bench/proto';

type Serializer = (payload: unknown) => string;

/** The blog's route as Fastify registers it (SamplesController's GET /server-a/:count). */
const SAMPLES_ROUTE = '/server-a/:count';

/** `serialize`, with its time counted as the server's encode phase. */
export function timedSerializer(serialize: Serializer): Serializer {
  return (payload) => {
    const started = performance.now();
    const text = serialize(payload);
    processSampler().addPhase('encode', performance.now() - started);
    return text;
  };
}

/** One timed wrapper per compiled serializer (Fastify compiles a route's response schema once). */
const timedBySchema = new WeakMap<Serializer, Serializer>();

/**
 * Tuning json-schema-serializer: the blog's route gets a response schema for its 200 replies, generated
 * from proto/sample.proto (libs/proto samplesReplyJsonSchema), which Fastify compiles with
 * fast-json-stringify. Fastify prefers a reply serializer set with setReplySerializer (ours, timed) over
 * any route schema, so a preSerialization hook on that route hands its 200 replies to the schema's
 * serializer, timed alike; errors (a 400 for a bad count) keep the plain one. Must run before Nest
 * registers its routes (onRoute sees only routes added after it).
 */
export function serializeSamplesBySchema(adapter: FastifyAdapter): void {
  const schema = samplesReplyJsonSchema();
  adapter.getInstance().addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (route.url !== SAMPLES_ROUTE || !methods.includes('GET')) return;
    route.schema = { ...route.schema, response: { 200: schema } };
    const existing = route.preSerialization === undefined ? [] : Array.isArray(route.preSerialization) ? route.preSerialization : [route.preSerialization];
    route.preSerialization = [
      ...existing,
      (_request, reply, payload, done) => {
        if (reply.statusCode === 200) {
          const compiled = reply.getSerializationFunction('200') as Serializer;
          let timed = timedBySchema.get(compiled);
          if (!timed) timedBySchema.set(compiled, (timed = timedSerializer(compiled)));
          reply.serializer(timed);
        }
        done(null, payload);
      },
    ];
  });
}
