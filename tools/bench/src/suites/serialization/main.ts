// bench:serialization (experiment §3a): in-process, no network. Encodes and decodes the blog's
// messages from a few bytes to over 100 KB with each codec (protobuf as the servers use it, the tuned
// protobuf codec, JSON, gzipped JSON), with calibrated iterations.
import { verifyReply } from '@bench/samples';
import type { SuiteOptionsSpec } from '../common/args';
import { suiteMain, type SuiteDefinition } from '../common/suite-main';
import { CODECS } from './codecs';
import { measureCell, type SerializationCell, type SerializationSettings } from './measure';
import { renderSerializationHtml, renderSerializationMarkdown } from './render';
import { SIZES } from './sizes';

export const SERIALIZATION_SPEC: SuiteOptionsSpec<SerializationSettings> = {
  suite: 'serialization',
  about:
    'In process, no network (experiment §3a): encodes and decodes the blog\'s messages from a few bytes to over\n' +
    '100 KB with each codec (protobuf as the servers use it, the tuned codec, JSON, gzipped JSON), with calibrated\n' +
    'iterations; writes results/serialization-<UTC timestamp>/.',
  options: {
    minSampleMs: { description: 'double the iterations until one sample takes at least this, ms', min: 1, max: 60_000 },
    targetSampleMs: { description: 'then scale the iterations so one sample takes about this, ms', min: 1, max: 600_000 },
    samples: { description: 'timed samples per codec, message and direction', min: 1, max: 1_000 },
  },
  profiles: {
    default: { minSampleMs: 100, targetSampleMs: 400, samples: 5 },
    quick: { minSampleMs: 5, targetSampleMs: 20, samples: 3 },
  },
};

export const SERIALIZATION_SUITE: SuiteDefinition<SerializationSettings, SerializationCell[]> = {
  spec: SERIALIZATION_SPEC,
  needsServers: false,
  plan: () => ({ sizes: SIZES.map((s) => s.id), codecs: CODECS.map(({ id, description }) => ({ id, description })) }),
  run: async (context) => {
    const cells: SerializationCell[] = [];
    for (const size of SIZES) {
      for (const codec of CODECS.filter((c) => c.handles.includes(size.kind))) {
        // A codec that loses rows is not timed: the round trip must give back what went in.
        const value = size.build();
        const back = codec.decode(size.kind, codec.encode(size.kind, value));
        if (size.kind === 'samples') {
          const check = verifyReply(back, (value as { samples: unknown[] }).samples.length);
          if (!check.ok) throw new Error(`${codec.id} does not round-trip ${size.id}: ${check.reason}`);
        }
        cells.push(...measureCell(size, codec, context.settings));
        context.progress(`${size.id} ${codec.id} done`, cells);
      }
    }
    return cells;
  },
  markdown: renderSerializationMarkdown,
  html: renderSerializationHtml,
};

if (require.main === module) suiteMain(SERIALIZATION_SUITE);
