import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConfigError, DEFAULT_SETTINGS, loadSettings } from '../src/settings';

describe('loadSettings', () => {
  it('uses the documented defaults when nothing is set', () => {
    expect(loadSettings({})).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS).toMatchObject({
      host: '127.0.0.1',
      clientPort: 3000,
      serverAPort: 3001,
      serverBPort: 3002,
      serverAUrl: 'http://127.0.0.1:3001',
      serverBUrl: '127.0.0.1:3002',
    });
  });

  it('reads every variable', () => {
    const settings = loadSettings({
      HOST: '0.0.0.0',
      CLIENT_PORT: '4000',
      SERVER_A_PORT: '4001',
      SERVER_B_PORT: '4002',
      SERVER_A_H2_PORT: '4003',
      SERVER_A_URL: 'http://server-a:4001/',
      SERVER_A_H2_URL: 'http://server-a:4003/',
      SERVER_B_URL: 'server-b:4002',
      MAX_ROWS: '50',
      MAX_PARALLEL: '7',
      VARIANT: 'tuned',
      CALL_TIMEOUT_MS: '2500',
      HANDSHAKE_TIMEOUT_MS: '500',
      MAX_CONNECTION_AGE_MS: '1500',
      GRPC_MIN_PING_INTERVAL_MS: '1000',
    });
    expect(settings).toEqual({
      host: '0.0.0.0',
      clientPort: 4000,
      serverAPort: 4001,
      serverBPort: 4002,
      serverAH2Port: 4003,
      serverAUrl: 'http://server-a:4001',
      serverAH2Url: 'http://server-a:4003',
      serverBUrl: 'server-b:4002',
      maxRows: 50,
      maxParallel: 7,
      variant: 'tuned',
      callTimeoutMs: 2500,
      handshakeTimeoutMs: 500,
      maxConnectionAgeMs: 1500,
      grpcMinPingIntervalMs: 1000,
      security: { mode: 'plain', ca: null, cert: null },
      microservices: DEFAULT_SETTINGS.microservices,
    });
  });

  it('reads the Nest microservice transports, their TCP listener, the brokers and the namespace', () => {
    const settings = loadSettings({
      SERVER_B_MICROSERVICES: 'nest-tcp, nest-redis,nest-tcp',
      SERVER_B_TCP_PORT: '4004',
      NEST_TCP_URL: 'server-b:4004',
      REDIS_URL: 'redis://127.0.0.1:6379',
      NATS_URL: 'nats://127.0.0.1:4222',
      RABBITMQ_URL: 'amqp://127.0.0.1:5672',
      MQTT_URL: 'mqtt://127.0.0.1:1883',
      KAFKA_BROKERS: '127.0.0.1:9092,127.0.0.1:9094',
      MICROSERVICE_NAMESPACE: 'bench42-set0',
      MICROSERVICE_GROUP: 'replicas',
      KAFKA_TOPIC_PARTITIONS: '3',
    });
    expect(settings.microservices).toEqual({
      serve: ['nest-tcp', 'nest-redis'],
      tcpPort: 4004,
      tcpUrl: 'server-b:4004',
      brokers: { redis: 'redis://127.0.0.1:6379', nats: 'nats://127.0.0.1:4222', rabbitmq: 'amqp://127.0.0.1:5672', mosquitto: 'mqtt://127.0.0.1:1883', kafka: '127.0.0.1:9092,127.0.0.1:9094' },
      namespace: 'bench42-set0',
      group: 'replicas',
      kafkaPartitions: 3,
    });
  });

  it.each([
    [{ SERVER_B_MICROSERVICES: 'nest tcp' }, 'SERVER_B_MICROSERVICES'],
    [{ SERVER_B_TCP_PORT: '0' }, 'SERVER_B_TCP_PORT'],
    [{ NEST_TCP_URL: 'tcp://server-b:4004' }, 'NEST_TCP_URL'],
    [{ KAFKA_BROKERS: 'kafka://127.0.0.1:9092' }, 'KAFKA_BROKERS'],
    [{ MICROSERVICE_NAMESPACE: 'a.b' }, 'MICROSERVICE_NAMESPACE'],
    [{ MICROSERVICE_GROUP: 'a/b' }, 'MICROSERVICE_GROUP'],
    [{ KAFKA_TOPIC_PARTITIONS: '-1' }, 'KAFKA_TOPIC_PARTITIONS'],
  ])('refuses %j naming %s', (env, variable) => {
    expect(() => loadSettings(env)).toThrow(new RegExp(variable));
  });

  it('refuses a malformed broker URL without echoing it (a URL may hold a password)', () => {
    expect(() => loadSettings({ RABBITMQ_URL: 'http://guest:s3cret@127.0.0.1' })).toThrow(/^RABBITMQ_URL must look like amqp:\/\/127.0.0.1:5672$/);
  });

  it.each([
    [{ CLIENT_PORT: 'abc' }, 'CLIENT_PORT'],
    [{ SERVER_A_PORT: '70000' }, 'SERVER_A_PORT'],
    [{ MAX_ROWS: '0' }, 'MAX_ROWS'],
    [{ SERVER_A_URL: 'server-a:3001' }, 'SERVER_A_URL'],
    [{ SERVER_A_H2_URL: 'server-a:3003' }, 'SERVER_A_H2_URL'],
    [{ SERVER_B_URL: 'http://server-b:3002' }, 'SERVER_B_URL'],
    [{ VARIANT: 'fast' }, 'VARIANT'],
    [{ VARIANT: 'tuned-without-no-such-tuning' }, 'VARIANT'],
    [{ VARIANT: 'blog-with-' }, 'VARIANT'],
    [{ CALL_TIMEOUT_MS: '0' }, 'CALL_TIMEOUT_MS'],
    [{ HANDSHAKE_TIMEOUT_MS: '50' }, 'HANDSHAKE_TIMEOUT_MS'],
  ])('refuses %p naming %s', (env, name) => {
    expect(() => loadSettings(env)).toThrow(ConfigError);
    expect(() => loadSettings(env)).toThrow(name);
  });
});

import { explainListenError } from '../src/listen-error';

describe('explainListenError', () => {
  it('names the port and the variable for a busy port', () => {
    const error = Object.assign(new Error('listen EADDRINUSE: address already in use 127.0.0.1:3001'), { code: 'EADDRINUSE' });
    expect(explainListenError(error, { variable: 'SERVER_A_PORT', port: 3001, host: '127.0.0.1' })).toBe(
      'port 3001 on 127.0.0.1 is already in use: stop what holds it or set SERVER_A_PORT to a free port',
    );
  });

  it('recognises grpc-js bind failures', () => {
    const error = new Error('No address added out of total 1 resolved');
    expect(explainListenError(error, { variable: 'SERVER_B_PORT', port: 3002, host: '127.0.0.1' })).toContain('SERVER_B_PORT');
  });
});

import { runtimeInfo } from '../src/runtime-info';

describe('runtimeInfo', () => {
  it('reports node, cpu and the installed versions of key packages', () => {
    const info = runtimeInfo();
    expect(info.node).toBe(process.version);
    expect(info.cpuCount).toBeGreaterThan(0);
    // What is installed, read from the package itself: the versions package.json pins (Nest 12 is ESM-only, its package.json still reads).
    const pinned = (JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies;
    for (const name of ['@nestjs/core', '@nestjs/microservices', 'undici', '@connectrpc/connect', '@bufbuild/protobuf', 'protobufjs8']) {
      expect([name, info.packages[name]]).toEqual([name, pinned[name].replace(/^npm:protobufjs@/, '')]);
    }
    expect(info.packages['@grpc/grpc-js']).toMatch(/^\d+\.\d+\.\d+/);
  });
});

import { kubernetesInfo, KUBERNETES_ENV } from '../src/runtime-info';

describe('kubernetesInfo', () => {
  it('is absent off Kubernetes', () => {
    expect(kubernetesInfo({ HOME: '/root' })).toBeUndefined();
  });

  it('reads the downward API variables, numbers as numbers, a missing one as null', () => {
    const env = {
      K8S_POD_NAME: 'client-7d9f-abcde',
      K8S_NAMESPACE: 'bench',
      K8S_NODE_NAME: 'node-1',
      K8S_CPU_REQUEST_MILLIS: '2000',
      K8S_CPU_LIMIT_MILLIS: '2000',
      K8S_MEMORY_LIMIT_BYTES: '6442450944',
      K8S_MEMORY_REQUEST_BYTES: 'lots',
      K8S_PLACEMENT: 'spread',
    };
    expect(kubernetesInfo(env)).toEqual({
      podName: 'client-7d9f-abcde',
      namespace: 'bench',
      nodeName: 'node-1',
      cpuRequestMillis: 2000,
      cpuLimitMillis: 2000,
      memoryRequestBytes: null,
      memoryLimitBytes: 6442450944,
      image: null,
      placement: 'spread',
    });
    expect(Object.values(KUBERNETES_ENV).every((name) => name.startsWith('K8S_'))).toBe(true);
  });
});
