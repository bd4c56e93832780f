// bench:brokers: install the pinned brokers, say where each is, remove what a killed run left.
//   npx nx run bench:brokers -- install [kind…] | status | sweep
import { runTool, UsageError, type Command, type CommandLine } from '../cli';
import { BROKER_KINDS } from './contract';
import { brokerStatus, installBrokers } from './install';
import { sweepLeftovers } from './leftovers';
import { brokerDefinition, isBrokerKind } from './registry';

const OPTIONS = {} as const;

export const BROKERS_COMMAND: Command<typeof OPTIONS> = {
  name: 'bench:brokers',
  synopsis: 'npx nx run bench:brokers -- <command> [broker…]',
  about: 'Installs the brokers the Nest transports go through, pinned, and says where each is.',
  options: OPTIONS,
  positionals: true,
  notes: `Commands:
  install [broker…]  install every broker (or those named) at its pinned version: Debian's packages
                     (their packaged services never started) and Kafka's jars from Maven Central into
                     the bench's cache; as root, with network access to Debian and Maven Central
  status             each broker, its pinned version, its source, installed or not, and where
  sweep              stop and remove the brokers of runs that were killed (the next start does it too)

Brokers: ${BROKER_KINDS.join(', ')} (docs/brokers.md)`,
};

function main({ positionals }: CommandLine<typeof OPTIONS>): number {
  const [command, ...args] = positionals;
  switch (command) {
    case 'install': {
      const unknown = args.filter((a) => !isBrokerKind(a));
      if (unknown.length) throw new UsageError(`unknown broker ${unknown[0]} (brokers: ${BROKER_KINDS.join(', ')})`);
      installBrokers(log, args.length ? args.filter(isBrokerKind).map(brokerDefinition) : undefined);
      return status();
    }
    case 'status':
      if (args.length) throw new UsageError(`status takes no argument (got ${args[0]})`);
      return status();
    case 'sweep': {
      if (args.length) throw new UsageError(`sweep takes no argument (got ${args[0]})`);
      const report = sweepLeftovers();
      log(report.removed.length ? `removed: ${report.removed.join(', ')}${report.killed.length ? ` (killed pids ${report.killed.join(', ')})` : ''}` : 'no leftover broker');
      if (report.live.length) log(`running for a live bench: ${report.live.join(', ')}`);
      return 0;
    }
    default:
      throw new UsageError(command ? `unknown command ${command}` : 'no command given');
  }
}

function status(): number {
  const rows = brokerStatus();
  for (const row of rows) log(`${row.kind.padEnd(10)} ${row.name} ${row.version}  ${row.where ? `installed: ${row.where}` : 'NOT INSTALLED'}\n${' '.repeat(11)}for ${row.transports.join(', ')}; from ${row.source}`);
  return rows.every((row) => row.where) ? 0 : 1;
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

if (require.main === module) runTool(BROKERS_COMMAND, main);
