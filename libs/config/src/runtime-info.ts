import * as os from 'node:os';

/** Packages whose versions decide what is measured; recorded in every report. */
export const KEY_PACKAGES = [
  '@nestjs/core',
  '@nestjs/common',
  '@nestjs/platform-express',
  '@nestjs/microservices',
  '@nestjs/axios',
  'axios',
  'express',
  '@grpc/grpc-js',
  '@grpc/proto-loader',
  'protobufjs',
  'rxjs',
] as const;

export interface RuntimeInfo {
  node: string;
  v8: string;
  platform: string;
  arch: string;
  cpuModel: string;
  cpuCount: number;
  totalMemoryBytes: number;
  packages: Record<string, string | null>;
}

function packageVersion(name: string): string | null {
  try {
    return (require(`${name}/package.json`) as { version: string }).version;
  } catch {
    return null;
  }
}

/** What this process runs on: Node, CPU and the versions of the packages on the measured path. */
export function runtimeInfo(): RuntimeInfo {
  const cpus = os.cpus();
  return {
    node: process.version,
    v8: process.versions.v8,
    platform: process.platform,
    arch: process.arch,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cpuCount: cpus.length,
    totalMemoryBytes: os.totalmem(),
    packages: Object.fromEntries(KEY_PACKAGES.map((name) => [name, packageVersion(name)])),
  };
}
