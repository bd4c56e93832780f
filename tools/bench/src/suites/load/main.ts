// bench:load: sustained closed-loop load and a concurrency sweep (1, 10, 100 in flight; 1 and 100
// rows) against server-a (autocannon) and server-b (our gRPC loop), with errors, CPU and RSS.
import type { SuiteOptionsSpec } from '../common/args';
import { suiteMain, type SuiteDefinition } from '../common/suite-main';
import { measureLoad, type LoadResults, type LoadSettings } from './measure';
import { LOAD_CONCURRENCY, LOAD_ROWS, LOAD_TARGETS } from './plan';
import { renderLoadHtml, renderLoadMarkdown } from './render';

export const LOAD_SPEC: SuiteOptionsSpec<LoadSettings> = {
  suite: 'load',
  about:
    'Sustained closed-loop load and a concurrency sweep (1, 10, 100 in flight; 1 and 100 rows) against server-a\n' +
    '(autocannon) and server-b (a gRPC loop), with errors, CPU and RSS; writes results/load-<UTC timestamp>/.',
  options: {
    durationMs: { description: 'timed load per cell, ms', min: 100, max: 600_000 },
    warmupMs: { description: 'untimed load before each cell, ms', min: 0, max: 60_000 },
    timeoutS: { description: 'seconds before an HTTP call counts as a timeout', min: 1, max: 120 },
  },
  presets: {
    default: { durationMs: 5_000, warmupMs: 1_000, timeoutS: 10 },
    quick: { durationMs: 300, warmupMs: 0, timeoutS: 10 },
  },
};

const LOAD_PLAN = { targets: LOAD_TARGETS, concurrency: LOAD_CONCURRENCY, rows: LOAD_ROWS };

export const LOAD_SUITE: SuiteDefinition<LoadSettings, LoadResults> = {
  spec: LOAD_SPEC,
  needsServers: true,
  plan: () => LOAD_PLAN,
  run: (context) => measureLoad(context.servers!, LOAD_PLAN, context.settings, context.progress),
  markdown: renderLoadMarkdown,
  html: renderLoadHtml,
};

if (require.main === module) suiteMain(LOAD_SUITE);
