import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { KAFKA } from '../../src/brokers/kafka/record';
import { brokerCacheDir, cachedJars, KAFKA_POM } from '../../src/brokers/maven';

describe("Kafka's jars", () => {
  it("the project's pom resolves exactly the record's artifacts", () => {
    const pom = fs.readFileSync(KAFKA_POM, 'utf8');
    const artifacts = [...pom.matchAll(/<groupId>([^<]+)<\/groupId>\s*<artifactId>([^<]+)<\/artifactId>\s*<version>([^<]+)<\/version>/g)].map((m) => `${m[1]}:${m[2]}:${m[3]}`);
    expect(artifacts.filter((a) => !a.startsWith('nest-grpc-bench:'))).toEqual(KAFKA.source.kind === 'maven' ? KAFKA.source.artifacts : []);
  });

  it('are cached beside the other fetched tools, and found only when complete', () => {
    expect(brokerCacheDir({ HOME: '/h', XDG_CACHE_HOME: '/c' })).toBe('/c/nest-grpc-bench/brokers');
    expect(brokerCacheDir({ BENCH_BROKER_CACHE: '/x' })).toBe('/x');
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'broker-cache-'));
    try {
      const jars = path.join(cache, 'kafka', '4.1.1', 'jars');
      fs.mkdirSync(jars, { recursive: true });
      fs.writeFileSync(path.join(jars, 'kafka_2.13-4.1.1.jar'), '');
      expect(cachedJars('4.1.1', cache)).toBeNull();
      fs.writeFileSync(path.join(jars, 'kafka-tools-4.1.1.jar'), '');
      expect(cachedJars('4.1.1', cache)).toBe(jars);
    } finally {
      fs.rmSync(cache, { recursive: true, force: true });
    }
  });
});
