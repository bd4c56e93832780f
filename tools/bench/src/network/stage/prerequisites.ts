import * as fs from 'node:fs';
import { DELAYER_BINARY } from './delayer';
import { describeHolder, isHeld, readLock } from './lock';
import { usesDelayer, usesStage, type NetworkProfile } from './profile';
import { hasCommand, run } from './shell';
import { NAMESPACE_PREFIX } from './topology';
import { errorText } from '../../cli';

/** Debian package of each program the stage runs. */
const PACKAGES: Record<string, string> = { ip: 'iproute2', tc: 'iproute2', sysctl: 'procps', iptables: 'iptables', ethtool: 'ethtool', ping: 'iputils-ping' };
export const INSTALL_COMMAND = 'apt-get install -y iptables iputils-ping ethtool';

/**
 * Why a stage for `profile` cannot be built here, as a message saying what to install or do; null
 * when it can. Checks root, the programs, the delayer's build, that the kernel takes the NFQUEUE
 * target and the statistic match (in a scratch namespace of ours, removed at once), and the lock.
 */
export function checkPrerequisites(profile: NetworkProfile, delayerBinary = DELAYER_BINARY): string | null {
  if (!usesStage(profile)) return null;
  if (process.platform !== 'linux') return `the network stage needs Linux (network namespaces); this is ${process.platform}`;
  if (process.getuid?.() !== 0) return 'the network stage needs root (it creates network namespaces and iptables rules inside them): run the bench as root';
  // ethtool: per-segment loss turns offloads off, and a delay gives the servers' end its receive thread.
  const needed = ['ip', 'tc', 'sysctl', 'iptables', ...(profile.loss > 0 || usesDelayer(profile) ? ['ethtool'] : [])];
  const missing = needed.filter((name) => !hasCommand(name));
  if (missing.length) {
    const packages = [...new Set(missing.map((name) => PACKAGES[name]))];
    return `the network stage needs ${missing.join(', ')}: install with \`apt-get install -y ${packages.join(' ')}\` (everything it uses: \`${INSTALL_COMMAND}\`)`;
  }
  if (usesDelayer(profile)) {
    try {
      fs.accessSync(delayerBinary, fs.constants.X_OK);
    } catch {
      return `the delayer is not built (${delayerBinary}): run \`npx nx run delayer:build\` (needs Go ≥ 1.26 on PATH)`;
    }
  }
  const kernel = probeKernel(profile);
  if (kernel) return kernel;
  const holder = readLock();
  if (holder && isHeld(holder) && holder.pid !== process.pid) return describeHolder(holder);
  return null;
}

/** Tries the iptables rules and qdisc the profile needs in a scratch namespace. */
function probeKernel(profile: NetworkProfile): string | null {
  const ns = `${NAMESPACE_PREFIX}probe-${process.pid}`;
  const inNs = (argv: string[]) => ['ip', 'netns', 'exec', ns, ...argv];
  const probes: [string, string[]][] = [];
  if (usesDelayer(profile)) probes.push(['the iptables NFQUEUE target (kernel nfnetlink_queue)', inNs(['iptables', '-w', '-A', 'FORWARD', '-j', 'NFQUEUE', '--queue-num', '0'])]);
  if (profile.loss > 0) probes.push(['the iptables statistic match', inNs(['iptables', '-w', '-A', 'FORWARD', '-m', 'statistic', '--mode', 'random', '--probability', '0.5', '-j', 'DROP'])]);
  if (profile.rateMbit !== null) probes.push(['the htb qdisc', ['tc', '-n', ns, 'qdisc', 'add', 'dev', 'lo', 'root', 'handle', '1:', 'htb']]);
  try {
    run(['ip', 'netns', 'add', ns]);
  } catch (error) {
    return `cannot create a network namespace: ${errorText(error)}`;
  }
  try {
    for (const [what, argv] of probes) {
      try {
        run(argv);
      } catch (error) {
        return `this kernel does not offer ${what}, which the profile "${profile.name}" needs: ${errorText(error)}`;
      }
    }
    return null;
  } finally {
    run(['ip', 'netns', 'delete', ns]);
  }
}
