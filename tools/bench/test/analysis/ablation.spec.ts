import { TUNINGS } from '@bench/config';
import { renderAblationSection } from '../../src/export/ablation';
import { renderReport } from '../../src/export/html';
import { renderMarkdown } from '../../src/export/markdown';
import { UsageError } from '../../src/cli';
import { parseOptions } from '../../src/plan/options';
import { planVisits } from '../../src/plan/plan';
import { ablation, ablationSummary, withoutAblations } from '../../src/analysis/ablation';
import type { Cell } from '../../src/model/model';
import { summarize } from '../../src/model/stats';
import { handMadeCell } from '../hand-made-cell';
import { buildMultiVariantDocument } from '../fixtures';

/** A cell of `variant` with every timed call of `from` times `factor`. */
function scaled(from: Cell, variant: string, factor: number): Cell {
  const samplesMs = from.samplesMs.map((v) => v * factor);
  return { ...from, variant, samplesMs, summary: summarize(samplesMs) };
}

describe('--ablate: each tuning flipped alone', () => {
  it('adds tuned without each tuning, run on the transports that tuning changes only', () => {
    const options = parseOptions(['--variants', 'tuned', '--transports', 'json,grpc,json-h2', '--ablate', 'http2-window,undici-pool', '--cases', '1-2', '--visits', '1']);
    expect(options.variants.map((v) => v.id)).toEqual(['tuned', 'tuned-without-http2-window', 'tuned-without-undici-pool']);
    const plan = planVisits(options);
    expect(plan.map((p) => [p.variant, p.transports])).toEqual([
      ['tuned', ['json', 'grpc', 'json-h2']],
      ['tuned-without-http2-window', ['grpc', 'json-h2']],
      ['tuned-without-undici-pool', ['json']],
    ]);
    // Each variant its own apps, started with its name.
    expect(options.variants[1].env).toEqual({ VARIANT: 'tuned-without-http2-window', NODE_OPTIONS: '--max-semi-space-size=64' });
  });

  it("starts a variant's apps with the Node options its tunings need, and without them when that tuning is off", () => {
    const options = parseOptions(['--variants', 'blog,tuned', '--ablate', 'larger-young-generation', '--cases', '1-3', '--visits', '1']);
    const env = Object.fromEntries(options.variants.map((v) => [v.id, v.env]));
    expect(env).toEqual({
      blog: { VARIANT: 'blog' },
      tuned: { VARIANT: 'tuned', NODE_OPTIONS: '--max-semi-space-size=64' },
      'tuned-without-larger-young-generation': { VARIANT: 'tuned-without-larger-young-generation' },
      'blog-with-larger-young-generation': { VARIANT: 'blog-with-larger-young-generation', NODE_OPTIONS: '--max-semi-space-size=64' },
    });
  });

  it('switches each tuning on alone from blog, and takes all', () => {
    const options = parseOptions(['--variants', 'blog,tuned', '--ablate', 'all']);
    expect(options.variants.map((v) => v.id)).toEqual([
      'blog',
      'tuned',
      ...TUNINGS.map((t) => `tuned-without-${t.id}`),
      ...TUNINGS.map((t) => `blog-with-${t.id}`),
    ]);
  });

  it('skips an ablation variant whose tuning changes none of the transports asked for', () => {
    const plan = planVisits(parseOptions(['--variants', 'tuned', '--transports', 'json', '--ablate', 'http2-window', '--cases', '1-1', '--visits', '1']));
    expect(plan.map((p) => p.variant)).toEqual(['tuned']);
  });

  it.each([
    [['--variants', 'tuned', '--ablate', 'no-such-tuning'], /unknown tuning "no-such-tuning"; tunings: undici-pool/],
    [['--variants', 'bare', '--ablate', 'all'], /add tuned or blog to --variants/],
    [['--variants', 'tuned-without-nothing'], /unknown variant "tuned-without-nothing"/],
  ])('refuses %p with a usage error', (argv, message) => {
    expect(() => parseOptions(argv)).toThrow(UsageError);
    expect(() => parseOptions(argv)).toThrow(message);
  });
});

describe('the ablation table', () => {
  const tuned = handMadeCell({ variant: 'tuned', transport: 'grpc', samplesMs: [20, 21, 22, 20, 21, 22, 20, 21, 22, 21], summary: null });
  const blog = handMadeCell({ variant: 'blog', transport: 'json', samplesMs: [60, 61, 62, 60, 61, 62, 60, 61, 62, 61], summary: null });
  const cells = [scaled(tuned, 'tuned', 1), scaled(blog, 'blog', 1)];
  const results = [
    ...cells,
    scaled(tuned, 'tuned-without-fast-protobuf-codec', 3),
    scaled(tuned, 'tuned-without-http2-window', 1),
    scaled(blog, 'blog-with-undici-pool', 0.5),
    { ...scaled(blog, 'blog-with-fastify-adapter', 1), ok: false, summary: null, error: 'socket hang up' },
    { ...scaled(tuned, 'tuned-without-listen-backlog', 1), ok: false, summary: null, error: 'read ECONNRESET' },
  ];

  it('sets each flipped cell beside its base: without ÷ with, its CI and what it means', () => {
    const rows = ablation(results);
    expect(rows.map((r) => [r.tuning, r.base, r.transport, r.withMs, r.withoutMs, r.effect])).toEqual([
      ['fast-protobuf-codec', 'tuned', 'grpc', 21, 63, 'saves time'],
      ['http2-window', 'tuned', 'grpc', 21, 21, 'no measurable effect'],
      ['undici-pool', 'blog', 'json', 30.5, 61, 'saves time'],
      ['fastify-adapter', 'blog', 'json', null, 61, 'fails with it'],
      ['listen-backlog', 'tuned', 'grpc', 21, null, 'fails without it'],
    ]);
    expect(rows[0].ratio).toBeCloseTo(3, 10);
    expect(rows[0].ci!.low).toBeGreaterThan(2.5);
    expect(ablationSummary(rows).map((s) => [s.base, s.tuning, s.byEffect['saves time']])).toEqual([
      ['tuned', 'fast-protobuf-codec', ['①-2 grpc']],
      ['tuned', 'http2-window', []],
      ['blog', 'undici-pool', ['①-2 json']],
      ['blog', 'fastify-adapter', []],
      ['tuned', 'listen-backlog', []],
    ]);
    expect(ablationSummary(rows).find((s) => s.tuning === 'listen-backlog')!.byEffect['fails without it']).toEqual(['①-2 grpc']);
    expect(withoutAblations(results)).toEqual(cells);
  });

  it('is printed in results.md and report.html, and only there: the verdict and variants tables keep the named variants', async () => {
    const base = await buildMultiVariantDocument();
    const tunedGrpc = base.results.find((r) => r.variant === 'tuned' && r.case === '①-2' && r.transport === 'grpc')!;
    const doc = { ...base, results: [...base.results, scaled(tunedGrpc, 'tuned-without-fast-protobuf-codec', 3.5)] };
    const md = renderMarkdown(doc);
    expect(md).toContain('## Ablation: each tuning measured alone');
    expect(renderAblationSection(doc.results)[4]).toMatch(/^\| fast-protobuf-codec \| tuned \| ①-2 \| grpc \| 20\.6 \| 72\.1 \| 3\.50× \(\d\.\d\d–\d\.\d\d\) \| saves time \|$/);
    expect(md).not.toMatch(/\| tuned-without-fast-protobuf-codec \| ①-2 \| (winner|gRPC|JSON)/);
    expect(md.match(/tuned-without-fast-protobuf-codec median ms/)).toBeNull();
    const html = renderReport(doc);
    expect(html).toMatch(/<section id="ablation" data-section="ablation">/);
    expect(html).toMatch(/<tr data-tuning="fast-protobuf-codec" data-base="tuned" data-case="①-2" data-transport="grpc" data-effect="saves time">/);
    const section = (id: string) => html.slice(html.indexOf(`data-section="${id}"`), html.indexOf('</section>', html.indexOf(`data-section="${id}"`)));
    for (const id of ['verdict', 'variants']) {
      expect(section(id)).toMatch(/^data-section="[a-z]+">/);
      expect(section(id)).toContain('data-variant="tuned"');
      expect(section(id)).not.toContain('tuned-without');
    }
    // The table of all cells lists them too.
    expect(section('results')).toContain('data-variant="tuned-without-fast-protobuf-codec"');
    expect(renderMarkdown(base)).not.toContain('Ablation');
  });
});
