// Debian's brokers, pinned: installed with `apt-get install pkg=version`, their packaged services never
// started (policy-rc.d) and stopped and disabled if something else started them, since the bench runs
// its own instance of each per run (start.ts).
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import type { DebianPackage } from './contract';

/** The package version dpkg has installed, or null. */
export function installedVersion(name: string): string | null {
  const result = spawnSync('dpkg-query', ['-W', '-f', '${Status}\t${Version}', name], { encoding: 'utf8' });
  if (result.status !== 0) return null;
  const [status, version] = result.stdout.split('\t');
  return status.trim() === 'install ok installed' && version ? version.trim() : null;
}

/** The packages not installed at their pinned version. */
export function missingPackages(packages: readonly DebianPackage[], installed = installedVersion): DebianPackage[] {
  return packages.filter((p) => installed(p.name) !== p.version);
}

/** What `apt-cache policy` offers for a package: its candidate and every version in its table. */
export function parsePolicy(text: string): { candidate: string | null; versions: string[] } {
  const candidate = /^\s*Candidate:\s*(\S+)/m.exec(text)?.[1] ?? null;
  const table = text.split(/^\s*Version table:\s*$/m)[1] ?? '';
  const versions = [...table.matchAll(/^\s*(?:\*\*\*\s+)?(\S+)\s+-?\d+\s*$/gm)].map((m) => m[1]);
  return { candidate: candidate === '(none)' ? null : candidate, versions };
}

function policyOf(name: string): { candidate: string | null; versions: string[] } {
  const result = spawnSync('apt-cache', ['policy', name], { encoding: 'utf8' });
  return parsePolicy(result.stdout ?? '');
}

/** Why Debian cannot give the pinned version, or null when it can. */
export function unavailableReason(p: DebianPackage, policy: { candidate: string | null; versions: string[] }, pinFile: string): string | null {
  if (policy.versions.includes(p.version)) return null;
  const offered = policy.versions.length ? `offers ${policy.versions.join(', ')} (candidate ${policy.candidate ?? 'none'})` : 'has no such package in its lists';
  return `${p.name}: the bench pins ${p.version}, and Debian ${offered}. Install that version by hand, or move the pin in ${pinFile} (and docs/brokers.md) to the candidate`;
}

const POLICY_RC = '/usr/sbin/policy-rc.d';
/** policy-rc.d's "forbidden" answer: invoke-rc.d starts no service while it is in place. */
const DENY_ALL = '#!/bin/sh\n# nest-grpc-bench: no packaged service starts while the bench installs its brokers\nexit 101\n';

/** Installs the packages at their pins with no service started; returns what it did, throws with the reason. */
export function installPackages(packages: readonly DebianPackage[], pinFile: string, log: (line: string) => void): void {
  const missing = missingPackages(packages);
  if (missing.length === 0) return;
  let reasons = missing.map((p) => unavailableReason(p, policyOf(p.name), pinFile)).filter((r): r is string => r !== null);
  if (reasons.length) {
    log('apt-get update (the pinned versions are not in the package lists)');
    execFileSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'] });
    reasons = missing.map((p) => unavailableReason(p, policyOf(p.name), pinFile)).filter((r): r is string => r !== null);
  }
  if (reasons.length) throw new Error(reasons.join('; '));
  const specs = missing.map((p) => `${p.name}=${p.version}`);
  log(`apt-get install ${specs.join(' ')}`);
  const epmdsBefore = new Set(epmdPids());
  withoutServiceStarts(() =>
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...specs], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      stdio: ['ignore', 'ignore', 'inherit'],
    }),
  );
  // rabbitmq-server's postinst runs rabbitmqctl, which leaves an `epmd -daemon` behind: the install's, so stopped.
  for (const pid of epmdPids().filter((pid) => !epmdsBefore.has(pid))) {
    try {
      process.kill(pid, 'SIGTERM');
      log(`stopped the epmd (pid ${pid}) the packages' install scripts left running`);
    } catch {
      // gone already
    }
  }
}

/** PIDs of the running epmd daemons (Erlang's port mapper), by their /proc/<pid>/comm. */
function epmdPids(): number[] {
  return fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).filter((entry) => {
    try {
      return fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'epmd';
    } catch {
      return false;
    }
  }).map(Number);
}

/** Runs `body` with a policy-rc.d that forbids starting services, restoring whatever was there. */
function withoutServiceStarts(body: () => void): void {
  let previous: string | null = null;
  try {
    previous = fs.readFileSync(POLICY_RC, 'utf8');
  } catch {
    previous = null;
  }
  if (previous === null || !/^\s*exit\s+101\s*$/m.test(previous)) fs.writeFileSync(POLICY_RC, DENY_ALL, { mode: 0o755 });
  try {
    body();
  } finally {
    if (previous === null) fs.rmSync(POLICY_RC, { force: true });
    else if (!/^\s*exit\s+101\s*$/m.test(previous)) fs.writeFileSync(POLICY_RC, previous, { mode: 0o755 });
  }
}

/**
 * Stops and disables a packaged service, whatever the init system: systemd when it runs, else the
 * SysV script (`service … stop`, `update-rc.d … disable`). Returns what it found, for `status`.
 */
export function keepServiceDown(service: string): string {
  const systemd = fs.existsSync('/run/systemd/system');
  if (systemd) {
    spawnSync('systemctl', ['disable', '--now', service], { stdio: 'ignore' });
    return `systemd unit ${service} stopped and disabled`;
  }
  if (!fs.existsSync(`/etc/init.d/${service}`)) return `no ${service} service`;
  const running = spawnSync('service', [service, 'status'], { stdio: 'ignore' }).status === 0;
  if (running) spawnSync('service', [service, 'stop'], { stdio: 'ignore' });
  spawnSync('update-rc.d', [service, 'disable'], { stdio: 'ignore' });
  return `${running ? 'stopped' : 'not running'}, disabled (init.d ${service})`;
}

/** A Debian broker's installation: every package at its pin and the binary there, or null. */
export function debianInstallation(source: { kind: string; packages?: readonly DebianPackage[] }, binary: string): { where: string } | null {
  if (source.kind !== 'debian' || !source.packages) return null;
  return missingPackages(source.packages).length === 0 && fs.existsSync(binary) ? { where: binary } : null;
}
