// bench:echo (experiment §4): 10,000 sequential echo calls per transport — gRPC unary, gRPC
// bidirectional stream, REST with a protobuf body, REST with a JSON body — timed as a whole.
import type { SuiteOptionsSpec } from '../common/args';
import { suiteMain, type SuiteDefinition } from '../common/suite-main';
import { measureEcho, type EchoResults, type EchoSettings } from './measure';
import { renderEchoHtml, renderEchoMarkdown } from './render';
import { ECHO_TRANSPORTS } from './transports';

export const ECHO_SPEC: SuiteOptionsSpec<EchoSettings> = {
  suite: 'echo',
  about:
    'Sequential echo calls (experiment §4) — gRPC unary, gRPC bidirectional stream, REST with a protobuf body,\n' +
    'REST with a JSON body — timed as a whole; writes results/echo-<UTC timestamp>/.',
  options: {
    calls: { description: 'sequential calls per transport and round, timed as a whole', min: 1, max: 1_000_000 },
    rounds: { description: 'rounds (transports rotate their order each round)', min: 1, max: 50 },
    warmup: { description: 'untimed calls before each timed loop', min: 0, max: 100_000 },
    contentBytes: { description: 'bytes of echo content', min: 0, max: 1_048_576 },
    streamOpens: { description: 'streams opened and closed to time that cost (0: skip)', min: 0, max: 10_000 },
  },
  presets: {
    default: { calls: 10_000, rounds: 3, warmup: 1_000, contentBytes: 32, streamOpens: 100 },
    quick: { calls: 200, rounds: 1, warmup: 20, contentBytes: 32, streamOpens: 5 },
  },
};

export const ECHO_SUITE: SuiteDefinition<EchoSettings, EchoResults> = {
  spec: ECHO_SPEC,
  needsServers: true,
  plan: () => ({ transports: ECHO_TRANSPORTS }),
  run: (context) => measureEcho(context.servers!, ECHO_TRANSPORTS, context.settings, context.progress, context.profiled),
  markdown: renderEchoMarkdown,
  html: renderEchoHtml,
};

if (require.main === module) suiteMain(ECHO_SUITE);
