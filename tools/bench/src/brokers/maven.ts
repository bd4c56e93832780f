// Kafka's jars: tools/bench/maven/kafka/pom.xml, resolved by Maven from Maven Central and copied into
// the bench's cache (~/.cache/nest-grpc-bench/brokers/kafka/<version>/jars, beside Envoy's), so a run
// never needs the network once installed. Run on the machine's JVM (java ≥ 17).
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const BROKER_CACHE_ENV = 'BENCH_BROKER_CACHE';

/** `$BENCH_BROKER_CACHE`, else `$XDG_CACHE_HOME/nest-grpc-bench/brokers`, else `~/.cache/nest-grpc-bench/brokers`. */
export function brokerCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env[BROKER_CACHE_ENV]) return path.resolve(env[BROKER_CACHE_ENV]!);
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'nest-grpc-bench', 'brokers');
}

/** The project's pom (tools/bench/maven/kafka/pom.xml): two levels up from both src/brokers and dist/brokers. */
export const KAFKA_POM = path.resolve(__dirname, '..', '..', 'maven', 'kafka', 'pom.xml');

/** The folder of the pinned version's jars, or null when it is not complete. */
export function cachedJars(version: string, cacheDir = brokerCacheDir()): string | null {
  const jars = path.join(cacheDir, 'kafka', version, 'jars');
  try {
    const names = fs.readdirSync(jars);
    return names.includes(`kafka_2.13-${version}.jar`) && names.includes(`kafka-tools-${version}.jar`) ? jars : null;
  } catch {
    return null;
  }
}

/** The classpath of the cached jars (java expands `dir/*`). */
export const classpathOf = (jars: string) => path.join(jars, '*');

/** Whether java ≥ 17 is on PATH (Kafka 4 needs it); the reason when not. */
export function javaMissing(): string | null {
  const result = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) return 'java is not on PATH (apt-get install -y openjdk-17-jre-headless)';
  const major = Number(/version "(\d+)/.exec(result.stderr)?.[1] ?? 0);
  return major >= 17 ? null : `java ${major} is too old for Kafka 4 (needs 17: apt-get install -y openjdk-17-jre-headless)`;
}

/** Resolves the pom's jars into the cache (atomically: a rename of a complete folder); returns the folder. */
export function fetchKafkaJars(version: string, log: (line: string) => void, cacheDir = brokerCacheDir()): string {
  const cached = cachedJars(version, cacheDir);
  if (cached) return cached;
  const java = javaMissing();
  if (java) throw new Error(java);
  if (spawnSync('mvn', ['-v'], { stdio: 'ignore' }).status !== 0) throw new Error('mvn is not on PATH (apt-get install -y maven)');
  const home = path.join(cacheDir, 'kafka', version);
  fs.mkdirSync(path.dirname(home), { recursive: true });
  const scratch = fs.mkdtempSync(path.join(path.dirname(home), `.fetch-${version}-`));
  try {
    log(`mvn dependency:copy-dependencies -f ${path.relative(process.cwd(), KAFKA_POM)} (Kafka ${version}'s jars from Maven Central)`);
    try {
      execFileSync('mvn', ['-q', '-B', '-f', KAFKA_POM, 'dependency:copy-dependencies', `-DoutputDirectory=${path.join(scratch, 'jars')}`, '-DincludeScope=runtime'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 600_000 });
    } catch (error) {
      const out = `${(error as { stdout?: string }).stdout ?? ''}${(error as { stderr?: string }).stderr ?? ''}`.trim().split('\n');
      throw new Error(`mvn could not resolve ${KAFKA_POM}: ${out.slice(-3).join(' ') || (error as Error).message}`);
    }
    if (!fs.existsSync(path.join(scratch, 'jars', `kafka_2.13-${version}.jar`))) throw new Error(`mvn left no kafka_2.13-${version}.jar`);
    fs.rmSync(home, { recursive: true, force: true });
    fs.renameSync(scratch, home);
    return path.join(home, 'jars');
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
