// bench:load: sustained closed-loop load and a concurrency sweep (1, 10, 100 in flight; 1 and 100
// rows) against server-a (autocannon) and server-b (our gRPC loop), with errors, CPU and RSS.
import type { OptionTable } from '../../cli';
import { brokersCannotRun } from '../../run';
import type { SuiteOptionsSpec } from '../common/args';
import { suiteMain, type SuiteDefinition } from '../common/suite-main';
import { measureLoad, type LoadResults, type LoadSettings } from './measure';
import { DEFAULT_LOAD_TARGETS, isNestTarget, LOAD_CONCURRENCY, LOAD_ROWS, LOAD_TARGETS, type LoadTarget } from './plan';
import { renderLoadHtml, renderLoadMarkdown } from './render';

const EXTRA_OPTIONS: OptionTable = {
  transports: {
    kind: 'list',
    value: 'LIST',
    choices: LOAD_TARGETS.map((t) => t.id),
    default: [...DEFAULT_LOAD_TARGETS],
    description: "what is loaded: http-json (server-a), grpc and Nest's microservice transports (server-b); the brokers the nest-* go through start with the run (on loopback, or in the stage's broker namespace)",
  },
};

const targetsOf = (extras: Record<string, unknown>): LoadTarget[] => [...new Set(extras.transports as LoadTarget[])];

export const LOAD_SPEC: SuiteOptionsSpec<LoadSettings> = {
  suite: 'load',
  about:
    'Sustained closed-loop load and a concurrency sweep (1, 10, 100 in flight; 1 and 100 rows) against server-a\n' +
    '(autocannon) and server-b (a gRPC loop; with --transports, a loop of ClientProxy.send() per Nest transport),\n' +
    'with errors, CPU and RSS; writes results/load-<UTC timestamp>/.',
  options: {
    durationMs: { description: 'timed load per cell, ms', min: 100, max: 600_000 },
    warmupMs: { description: 'untimed load before each cell, ms', min: 0, max: 60_000 },
    timeoutS: { description: 'seconds before an HTTP call counts as a timeout', min: 1, max: 120 },
  },
  presets: {
    default: { durationMs: 5_000, warmupMs: 1_000, timeoutS: 10 },
    quick: { durationMs: 300, warmupMs: 0, timeoutS: 10 },
  },
  extraOptions: EXTRA_OPTIONS,
};

const LOAD_PLAN = { targets: LOAD_TARGETS, concurrency: LOAD_CONCURRENCY, rows: LOAD_ROWS };

export const LOAD_SUITE: SuiteDefinition<LoadSettings, LoadResults> = {
  spec: LOAD_SPEC,
  needsServers: true,
  checkArgs: (args) => {
    const nest = targetsOf(args.extras).filter(isNestTarget);
    if (nest.length > 0 && args.securities.some((s) => s.tls)) return `--transports ${nest.join(',')}: Nest's TCP transport and the brokers run in plaintext only here; run them with --security plain`;
    return brokersCannotRun(nest);
  },
  nestTransports: (extras) => targetsOf(extras).filter(isNestTarget),
  plan: () => LOAD_PLAN,
  run: (context) => measureLoad(context.servers!, { ...LOAD_PLAN, targets: LOAD_TARGETS.filter((t) => targetsOf(context.extras).includes(t.id)) }, context.settings, context.progress, context.profiled),
  markdown: renderLoadMarkdown,
  html: renderLoadHtml,
};

if (require.main === module) suiteMain(LOAD_SUITE);
