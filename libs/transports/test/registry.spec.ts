import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_SETTINGS } from '@bench/config';
import { bareTransports, brokersOf, closeTransports, microserviceBindings, MICROSERVICE_TRANSPORT_NAMES, nestTransports, TRANSPORT_NAMES } from '../src/registry';

const SRC = path.join(__dirname, '../src');

/** What every transport's folder holds: its registration, client, server binding and options (bare.ts and caller.ts besides, where the bare client or a suite calls it). */
const FOLDER_FILES = ['client.ts', 'index.ts', 'options.ts', 'server.ts'];

describe('the registry', () => {
  it('names the transports in report order, the blog\'s two first, a new one after those of earlier runs', () => {
    expect(TRANSPORT_NAMES.slice(0, 7)).toEqual(['json', 'grpc', 'json-h2', 'proto-h1', 'connect-json', 'connect-proto', 'connect-grpc']);
  });

  it.each(TRANSPORT_NAMES)('%s is a folder with the same files as its siblings, and a test that runs it on the quick case', (name) => {
    const files = fs.readdirSync(path.join(SRC, name));
    expect(files).toEqual(expect.arrayContaining(FOLDER_FILES));
    expect(fs.readFileSync(path.join(__dirname, name, 'client.spec.ts'), 'utf8')).toMatch(new RegExp(`describe(Broker)?QuickCase\\('${name}'`));
  });

  it('registers no folder that is not a transport', () => {
    const folders = fs.readdirSync(SRC, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(folders.sort()).toEqual([...TRANSPORT_NAMES, 'common'].sort());
  });

  it('names the broker each Nest microservice transport needs, and binds each on server-b', () => {
    expect(MICROSERVICE_TRANSPORT_NAMES).toEqual(['nest-tcp', 'nest-redis', 'nest-nats', 'nest-rmq', 'nest-mqtt', 'nest-kafka']);
    expect(brokersOf(['json', 'grpc', 'nest-tcp'])).toEqual([]);
    expect(brokersOf(['nest-kafka', 'nest-redis', 'nest-tcp', 'nest-nats', 'nest-mqtt', 'nest-rmq'])).toEqual(['redis', 'nats', 'rabbitmq', 'mosquitto', 'kafka']);
  });

  it('refuses a SERVER_B_MICROSERVICES name that is not a microservice transport, naming those that are', () => {
    const settings = { ...DEFAULT_SETTINGS, microservices: { ...DEFAULT_SETTINGS.microservices, serve: ['grpc'] } };
    expect(() => microserviceBindings(settings)).toThrow(/"grpc", which is not one of nest-tcp, nest-redis/);
  });

  it('fails a broker transport without its broker URL naming the variable, on every call and at server-b\'s start', async () => {
    const transport = nestTransports({ settings: DEFAULT_SETTINGS, http: undefined as never, grpc: undefined as never })['nest-redis']!;
    await expect(transport.shared().fetchAll(1, 1, 1_000)).rejects.toThrow(/nest-redis: no broker: REDIS_URL is not set/);
    const settings = { ...DEFAULT_SETTINGS, microservices: { ...DEFAULT_SETTINGS.microservices, serve: ['nest-nats'] } };
    expect(() => microserviceBindings(settings)).toThrow(/nest-nats: no broker: NATS_URL is not set/);
  });

  it('gives the bare client the blog\'s two transports, made without Nest', async () => {
    const transports = bareTransports(DEFAULT_SETTINGS);
    expect(Object.keys(transports)).toEqual(['json', 'grpc']);
    await closeTransports(transports);
  });
});
