import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { confinement, type Confinement } from './confinement';

/**
 * Packages whose versions decide what is measured; recorded in every report, per app (each app's
 * /bench/info) and for the bench. `protobufjs8` is the npm alias of protobufjs 8 beside 7; the last six are the
 * clients of Nest 12's broker transports (optional peers of @nestjs/microservices).
 */
export const KEY_PACKAGES = [
  '@nestjs/core',
  '@nestjs/common',
  '@nestjs/platform-express',
  '@nestjs/platform-fastify',
  '@nestjs/microservices',
  '@nestjs/axios',
  'axios',
  'express',
  'fastify',
  'undici',
  '@grpc/grpc-js',
  '@grpc/proto-loader',
  'protobufjs',
  'protobufjs8',
  '@bufbuild/protobuf',
  '@connectrpc/connect',
  '@connectrpc/connect-node',
  '@connectrpc/connect-fastify',
  'rxjs',
  '@nats-io/transport-node',
  'ioredis',
  'amqplib',
  'amqp-connection-manager',
  'mqtt',
  'kafkajs',
] as const;

export interface RuntimeInfo {
  node: string;
  v8: string;
  /** TLS and HTTP/1 parser of this Node (process.versions): both move between majors and both are on the measured path. */
  openssl: string;
  llhttp: string | null;
  platform: string;
  arch: string;
  cpuModel: string;
  cpuCount: number;
  totalMemoryBytes: number;
  packages: Record<string, string | null>;
  /** The Node/V8 options it started with (command line, then NODE_OPTIONS): a tuning may need some (libs/config nodeOptionsFor). */
  nodeOptions?: string;
  /** Its CPUs, memory and heap limits, container and addresses, as the process sees them (confinement.ts). */
  confinement?: Confinement;
  /** Where this process runs on Kubernetes (deploy/k8s/), from the pod's K8S_* environment; absent elsewhere. */
  kubernetes?: KubernetesInfo;
}

/**
 * What a pod knows about itself through the downward API (docs/kubernetes.md): its name, namespace and
 * node, its container's CPU (millicores) and memory (bytes) requests and limits (with no limit set the
 * downward API reports the node's allocatable amount), and what the manifests say: the image and the
 * placement overlay. The servers' pods are not visible from here; their placement is the overlay's rule.
 */
export interface KubernetesInfo {
  podName: string | null;
  namespace: string | null;
  nodeName: string | null;
  cpuRequestMillis: number | null;
  cpuLimitMillis: number | null;
  memoryRequestBytes: number | null;
  memoryLimitBytes: number | null;
  image: string | null;
  placement: string | null;
}

/** Environment variable for each field, as deploy/k8s/base/pod-defaults.yaml sets them. */
export const KUBERNETES_ENV: Readonly<Record<keyof KubernetesInfo, string>> = Object.freeze({
  podName: 'K8S_POD_NAME',
  namespace: 'K8S_NAMESPACE',
  nodeName: 'K8S_NODE_NAME',
  cpuRequestMillis: 'K8S_CPU_REQUEST_MILLIS',
  cpuLimitMillis: 'K8S_CPU_LIMIT_MILLIS',
  memoryRequestBytes: 'K8S_MEMORY_REQUEST_BYTES',
  memoryLimitBytes: 'K8S_MEMORY_LIMIT_BYTES',
  image: 'K8S_IMAGE',
  placement: 'K8S_PLACEMENT',
});

/** The pod's description from its environment, or undefined when no K8S_* variable is set (not on Kubernetes). */
export function kubernetesInfo(env: NodeJS.ProcessEnv = process.env): KubernetesInfo | undefined {
  const read = (name: string): string | null => env[name]?.trim() || null;
  if (!Object.values(KUBERNETES_ENV).some((name) => read(name) !== null)) return undefined;
  const info = {} as Record<keyof KubernetesInfo, string | number | null>;
  for (const [key, name] of Object.entries(KUBERNETES_ENV) as [keyof KubernetesInfo, string][]) {
    const value = read(name);
    const numeric = /Millis$|Bytes$/.test(key);
    info[key] = numeric && value !== null ? (/^\d+$/.test(value) ? Number(value) : null) : value;
  }
  return info as unknown as KubernetesInfo;
}

/** The installed version of a package, found the way Node would resolve it from here. */
function packageVersion(name: string): string | null {
  for (const dir of require.resolve.paths(name) ?? []) {
    const manifest = path.join(dir, name, 'package.json');
    if (fs.existsSync(manifest)) return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
  }
  return null;
}

/** What this process runs on: Node, CPU and the versions of the packages on the measured path. */
export function runtimeInfo(): RuntimeInfo {
  const cpus = os.cpus();
  const kubernetes = kubernetesInfo();
  return {
    node: process.version,
    v8: process.versions.v8,
    openssl: process.versions.openssl,
    llhttp: process.versions.llhttp ?? null,
    platform: process.platform,
    arch: process.arch,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cpuCount: cpus.length,
    totalMemoryBytes: os.totalmem(),
    packages: Object.fromEntries(KEY_PACKAGES.map((name) => [name, packageVersion(name)])),
    nodeOptions: [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ').trim(),
    confinement: confinement(),
    ...(kubernetes ? { kubernetes } : {}),
  };
}
