import * as fs from 'node:fs';
import * as os from 'node:os';
import * as v8 from 'node:v8';

/**
 * What confines this process, read from the process itself rather than from what a deployment says:
 * the CPUs the kernel lets it run on (a container's cpuset, taskset), its memory limit (the cgroup's, as
 * libuv finds it), the heap V8 sized from it and the addresses it has (a container on a bridge network
 * has its own; a plain process on loopback has none but 127.0.0.1). Only the deployment's name comes
 * from outside: /.dockerenv or a cgroup path cannot tell a container from a VM that has them too.
 */
export interface Confinement {
  /** The CPU list it may run on ("0-1"), from /proc/self/status; null where there is no /proc. */
  cpus: string | null;
  /** How many of the machine's CPUs that is. */
  cpuCount: number;
  /** The cgroup memory limit when it is below the machine's memory, else null (no limit of its own). */
  memoryLimitBytes: number | null;
  /** V8's heap limit (old and young generations), as the flags and the memory limit set it. */
  heapLimitBytes: number;
  /** What started it: BENCH_DEPLOYMENT (docker-compose.yml sets `docker-compose`), `kubernetes` where the kubelet set KUBERNETES_SERVICE_HOST, else null. */
  deployment: string | null;
  /** Its non-loopback IPv4 addresses, "eth0 198.19.240.3". */
  addresses: string[];
}

/** The CPU list of /proc/self/status (Cpus_allowed_list), or null. */
export function allowedCpus(status: string): string | null {
  return /^Cpus_allowed_list:\s*(\S+)$/m.exec(status)?.[1] ?? null;
}

/** How many CPUs a list such as "0-1,4" names. */
export function countCpus(list: string): number {
  return list.split(',').reduce((sum, part) => {
    const [from, to = from] = part.split('-').map(Number);
    return sum + (to - from + 1);
  }, 0);
}

/** The deployment that started this process: BENCH_DEPLOYMENT, else `kubernetes` where the kubelet set KUBERNETES_SERVICE_HOST, else null. */
export function deploymentOf(env: NodeJS.ProcessEnv = process.env): string | null {
  return env.BENCH_DEPLOYMENT?.trim() || (env.KUBERNETES_SERVICE_HOST ? 'kubernetes' : null);
}

export function confinement(env: NodeJS.ProcessEnv = process.env): Confinement {
  let status = '';
  try {
    status = fs.readFileSync('/proc/self/status', 'utf8');
  } catch {
    // not Linux: no CPU list
  }
  const cpus = allowedCpus(status);
  const constrained = process.constrainedMemory();
  const deployment = deploymentOf(env);
  const addresses = Object.entries(os.networkInterfaces()).flatMap(([name, list]) =>
    (list ?? []).filter((a) => a.family === 'IPv4' && !a.internal).map((a) => `${name} ${a.address}`),
  );
  return {
    cpus,
    cpuCount: cpus ? countCpus(cpus) : os.availableParallelism(),
    memoryLimitBytes: constrained > 0 && constrained < os.totalmem() ? constrained : null,
    heapLimitBytes: v8.getHeapStatistics().heap_size_limit,
    deployment,
    addresses,
  };
}
