// bench:serialization (experiment §3a): in-process, no network. Encodes and decodes the blog's
// messages from a few bytes to ①-2's 10,000-row reply (①-3's 1,000,000 with --max-rows) with each codec (protobuf as the servers use it,
// the tuned protobuf codec, the generated protobuf-es and ts-proto codecs, JSON, gzipped JSON), with
// calibrated iterations.
import { verifyReply } from '@bench/samples';
import type { SuiteOptionsSpec } from '../common/args';
import { suiteMain, type SuiteDefinition } from '../common/suite-main';
import { CODECS } from './codecs';
import { measureCell, type SerializationCell, type SerializationSettings } from './measure';
import { renderSerializationHtml, renderSerializationMarkdown } from './render';
import { sizesUpTo } from './sizes';

export const SERIALIZATION_SPEC: SuiteOptionsSpec<SerializationSettings> = {
  suite: 'serialization',
  about:
    'In process, no network (experiment §3a): encodes and decodes the blog\'s messages from a few bytes to\n' +
    '10,000 rows (1,000,000 with --max-rows 1000000) with each codec (protobuf as the servers use it,\n' +
    'the tuned codec, the generated protobuf-es and ts-proto codecs, JSON, gzipped JSON), with calibrated\n' +
    'iterations; writes\n' +
    'results/serialization-<UTC timestamp>/.',
  options: {
    minSampleMs: { description: 'double the iterations until one sample takes at least this, ms', min: 1, max: 60_000 },
    targetSampleMs: { description: 'then scale the iterations so one sample takes about this, ms', min: 1, max: 600_000 },
    samples: { description: 'timed samples per codec, message and direction', min: 1, max: 1_000 },
    maxRows: { description: 'largest reply measured, rows (1 to 1,000,000: the ladder 1, 10, 100, 1,000, 10,000, 1,000,000)', min: 1, max: 1_000_000 },
  },
  presets: {
    // 1,000,000 rows only when asked: a few seconds per operation there, and bench:suites runs this profile.
    default: { minSampleMs: 100, targetSampleMs: 400, samples: 5, maxRows: 10_000 },
    quick: { minSampleMs: 5, targetSampleMs: 20, samples: 3, maxRows: 1_000 },
  },
};

export const SERIALIZATION_SUITE: SuiteDefinition<SerializationSettings, SerializationCell[]> = {
  spec: SERIALIZATION_SPEC,
  needsServers: false,
  plan: (settings) => ({ sizes: sizesUpTo(settings.maxRows).map((s) => s.id), codecs: CODECS.map(({ id, description }) => ({ id, description })) }),
  run: async (context) => {
    const cells: SerializationCell[] = [];
    for (const size of sizesUpTo(context.settings.maxRows)) {
      for (const codec of CODECS.filter((c) => c.handles.includes(size.kind))) {
        // A codec that loses rows is not timed: the round trip must give back what went in.
        const value = size.build();
        const back = codec.decode(size.kind, codec.encode(size.kind, value));
        if (size.kind === 'samples') {
          const check = verifyReply(back, (value as { samples: unknown[] }).samples.length);
          if (!check.ok) throw new Error(`${codec.id} does not round-trip ${size.id}: ${check.reason}`);
        }
        cells.push(...(await measureCell(size, codec, context.settings, context.profiled)));
        context.progress(`${size.id} ${codec.id} done`, cells);
      }
    }
    return cells;
  },
  markdown: renderSerializationMarkdown,
  html: renderSerializationHtml,
};

if (require.main === module) suiteMain(SERIALIZATION_SUITE);
