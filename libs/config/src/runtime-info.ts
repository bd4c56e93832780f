import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

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
