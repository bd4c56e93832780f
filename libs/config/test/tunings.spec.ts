import { ConfigError } from '../src/config-error';
import { loadSettings } from '../src/settings';
import { missingNodeOptions } from '../src/node-options';
import { ablationOf, ablationVariant, brokerTuningsFor, grpcCodecFor, isTuned, nestVariantEnv, nodeOptionsFor, parseNestVariant, TUNED_CODECS, TUNINGS, tuningsFor, tuningTransports } from '../src/tunings';

describe('tunings and the variants that apply them', () => {
  const ids = TUNINGS.map((t) => t.id);

  it('applies none for blog, all for tuned, the window alone for blog-window', () => {
    expect(tuningsFor('blog')).toEqual([]);
    expect(tuningsFor('tuned').map((t) => t.id)).toEqual(ids);
    expect(tuningsFor('blog-window').map((t) => t.id)).toEqual(['http2-window']);
  });

  it.each(ids)('flips %s alone: tuned without it has every other tuning, blog with it has only it', (id) => {
    const without = ablationVariant('tuned', id);
    const withIt = ablationVariant('blog', id);
    expect([without, withIt]).toEqual([`tuned-without-${id}`, `blog-with-${id}`]);
    expect(tuningsFor(without).map((t) => t.id)).toEqual(ids.filter((other) => other !== id));
    expect(tuningsFor(withIt).map((t) => t.id)).toEqual([id]);
    expect(isTuned(without, id)).toBe(false);
    expect(isTuned(withIt, id)).toBe(true);
    expect(ablationOf(without)).toEqual({ base: 'tuned', tuning: TUNINGS.find((t) => t.id === id) });
    expect(loadSettings({ VARIANT: without }).variant).toBe(without);
  });

  it('knows a variant only when it names a tuning', () => {
    expect(parseNestVariant('tuned')).toBe('tuned');
    expect(parseNestVariant('tuned-without-http2-window')).toBe('tuned-without-http2-window');
    expect(parseNestVariant('tuned-without-nothing')).toBeNull();
    expect(parseNestVariant('bare')).toBeNull();
    expect(ablationOf('tuned')).toBeNull();
  });

  it('names the transports each tuning changes, every one a transport the bench knows', () => {
    const known = ['json', 'grpc', 'json-h2', 'proto-h1', 'connect-json', 'connect-proto', 'connect-grpc', 'nest-tcp', 'nest-redis', 'nest-nats', 'nest-rmq', 'nest-mqtt', 'nest-kafka'];
    for (const tuning of TUNINGS) {
      expect(tuningTransports(tuning).length).toBeGreaterThan(0);
      expect(known).toEqual(expect.arrayContaining(tuningTransports(tuning)));
    }
  });

  it("names the broker whose config a tuning changes, and which of a variant's tunings each broker must be started with", () => {
    expect(TUNINGS.filter((t) => t.broker).map((t) => [t.id, t.broker])).toEqual([
      ['mqtt-no-delay', 'mosquitto'],
      ['nats-max-payload', 'nats'],
      ['kafka-max-message', 'kafka'],
      ['redis-pubsub-buffer', 'redis'],
      ['rmq-max-message-size', 'rabbitmq'],
    ]);
    for (const tuning of TUNINGS.filter((t) => t.broker)) expect(tuning.app.startsWith('broker')).toBe(true);
    expect(brokerTuningsFor('blog', 'nats')).toEqual([]);
    expect(brokerTuningsFor('tuned', 'nats')).toEqual(['nats-max-payload']);
    expect(brokerTuningsFor('tuned', 'mosquitto')).toEqual(['mqtt-no-delay']);
    expect(brokerTuningsFor('tuned', 'redis')).toEqual(['redis-pubsub-buffer']);
    expect(brokerTuningsFor('tuned-without-nats-max-payload', 'nats')).toEqual([]);
    expect(brokerTuningsFor('tuned-without-tcp-no-delay', 'kafka')).toEqual(['kafka-max-message']);
    expect(brokerTuningsFor('blog-with-redis-pubsub-buffer', 'redis')).toEqual(['redis-pubsub-buffer']);
    expect(brokerTuningsFor('blog-with-redis-pubsub-buffer', 'rabbitmq')).toEqual([]);
  });

  it('gives the Node options a variant must start with, and says which a process lacks', () => {
    expect(nodeOptionsFor('blog')).toBe('');
    expect(nodeOptionsFor('tuned')).toBe('--max-semi-space-size=64');
    expect(nestVariantEnv('blog-window')).toEqual({ VARIANT: 'blog-window' });
    expect(nestVariantEnv('tuned')).toEqual({ VARIANT: 'tuned', NODE_OPTIONS: '--max-semi-space-size=64' });
    expect(missingNodeOptions('tuned', [], undefined)).toEqual(['--max-semi-space-size=64']);
    expect(missingNodeOptions('tuned', ['--max-semi-space-size=64'], undefined)).toEqual([]);
    expect(missingNodeOptions('tuned', [], '--no-warnings  --max-semi-space-size=64')).toEqual([]);
    expect(missingNodeOptions('tuned', [], '--max-semi-space-size=32')).toEqual(['--max-semi-space-size=64']);
    expect(missingNodeOptions('blog', [], undefined)).toEqual([]);
  });
});

describe('grpcCodecFor', () => {
  it("gives the blog's variants proto-loader's codec, whatever TUNED_CODEC says", () => {
    expect(grpcCodecFor('blog', {})).toBe('proto-loader');
    expect(grpcCodecFor('blog-window', { TUNED_CODEC: 'ts-proto' })).toBe('proto-loader');
    expect(grpcCodecFor('tuned-without-fast-protobuf-codec', { TUNED_CODEC: 'ts-proto' })).toBe('proto-loader');
  });

  it('gives tuned the first of TUNED_CODECS, or the one TUNED_CODEC names', () => {
    expect(grpcCodecFor('tuned', {})).toBe(TUNED_CODECS[0]);
    expect(grpcCodecFor('tuned', { TUNED_CODEC: '' })).toBe(TUNED_CODECS[0]);
    for (const codec of TUNED_CODECS) expect(grpcCodecFor('tuned', { TUNED_CODEC: ` ${codec} ` })).toBe(codec);
  });

  it('stops on a codec it does not know, naming the variable', () => {
    expect(() => grpcCodecFor('tuned', { TUNED_CODEC: 'proto-loader' })).toThrow(ConfigError);
    expect(() => grpcCodecFor('tuned', { TUNED_CODEC: 'protobufjs' })).toThrow(/TUNED_CODEC must be one of fast, ts-proto, protobuf-es/);
  });

  it('stops a tuned app at start-up (loadSettings) on an unknown TUNED_CODEC; a blog app ignores it', () => {
    expect(() => loadSettings({ VARIANT: 'tuned', TUNED_CODEC: 'protobufjs' })).toThrow(/TUNED_CODEC must be one of/);
    expect(loadSettings({ VARIANT: 'blog', TUNED_CODEC: 'protobufjs' }).variant).toBe('blog');
    expect(loadSettings({ VARIANT: 'tuned', TUNED_CODEC: 'ts-proto' }).variant).toBe('tuned');
  });
});
