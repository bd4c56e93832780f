import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runExperiment, type Experiment, type ExperimentOptions, type FolderPolicy, type InterruptPolicy } from '../../src/run/experiment';
import { findPath, type PathProfile } from '../../src/network/path';
import { defaultRuntime } from '../../src/plan/runtimes';
import { SECURITY_MODES } from '@bench/config';
import { matrixExperiment } from '../../src/run/matrix';
import { parseOptions } from '../../src/plan/options';
import { parseSuiteArgs } from '../../src/suites/common/args';
import { suiteExperiment } from '../../src/suites/common/suite-experiment';
import { ECHO_SUITE } from '../../src/suites/echo/main';

interface Doc {
  incomplete: boolean;
  networks: string[];
  slices: string[];
}

/** Two networks without a stage (a second name for loopback), so that the walk needs no root. */
function networks(): PathProfile[] {
  const loopback = findPath('loopback');
  return [loopback, { ...loopback, name: 'loopback-2' }];
}

function options(out: string): ExperimentOptions {
  return { out, networks: networks(), runtimes: [defaultRuntime()], securities: SECURITY_MODES.filter((m) => m.name !== 'mtls'), argv: [], startsApps: false };
}

/** A recording experiment: what the frame asked of it, and a `measure` that can fail or be interrupted. */
function recorder(folders: FolderPolicy, interrupt: InterruptPolicy = 'after-visit', onMeasure: (slice: string) => void = () => undefined) {
  const events: string[] = [];
  const experiment: Experiment<Doc, string> = {
    tool: 'demo',
    folderPrefix: 'demo',
    folders,
    runtimes: 'process',
    interrupt,
    exporters: { measuring: [{ file: 'results.json', render: (doc) => JSON.stringify(doc) }], end: [{ file: 'results.json', render: (doc) => JSON.stringify(doc) }, { file: 'results.md', render: (doc) => doc.slices.join('\n') }] },
    open: (run) => {
      const doc: Doc = { incomplete: true, networks: run.networks.map((n) => n.name), slices: [] };
      const named = `${doc.networks.join(',')}${run.securities.length === 1 ? ` ${run.securities[0].name}` : ''}`;
      events.push(`open ${named}`);
      run.keep(() => events.push(`stop ${named}`));
      return {
        doc,
        across: async (network, inner) => {
          events.push(`across ${network.name}`);
          await inner(`placed on ${network.name}`);
        },
        measure: async (slice) => {
          const label = `${slice.network.name}/${slice.runtime.name}/${slice.security.name}`;
          onMeasure(label);
          doc.slices.push(label);
          run.save();
        },
        close: (interrupted) => ({ doc: { ...doc, incomplete: interrupted }, code: 0 }),
        report: async () => void events.push('report'),
      };
    },
  };
  return { experiment, events };
}

function runFolders(out: string): Doc[] {
  return fs
    .readdirSync(out)
    .filter((name) => name.startsWith('demo-'))
    .sort()
    .map((name) => JSON.parse(fs.readFileSync(path.join(out, name, 'results.json'), 'utf8')) as Doc);
}

describe('runExperiment, the one run frame', () => {
  let out: string;
  beforeEach(() => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'frame-'));
  });
  afterEach(() => fs.rmSync(out, { recursive: true, force: true }));

  it("one-per-run: every network in one folder and one document, walked network × runtime × security, then closed and indexed", async () => {
    const { experiment, events } = recorder('one-per-run');
    expect(await runExperiment(experiment, options(out))).toBe(0);
    const runtime = defaultRuntime().name;
    expect(runFolders(out)).toEqual([
      { incomplete: false, networks: ['loopback', 'loopback-2'], slices: [`loopback/${runtime}/plain`, `loopback/${runtime}/tls`, `loopback-2/${runtime}/plain`, `loopback-2/${runtime}/tls`] },
    ]);
    expect(events).toEqual(['open loopback,loopback-2', 'across loopback', 'across loopback-2', 'stop loopback,loopback-2', 'report']);
    const folder = fs.readdirSync(out).find((name) => name.startsWith('demo-'))!;
    expect(fs.readdirSync(path.join(out, folder)).sort()).toEqual(['results.json', 'results.md']);
    expect(fs.existsSync(path.join(out, 'index.html'))).toBe(true);
  });

  it('one-per-network: a folder and a document per network and security mode, each opened, stopped and reported', async () => {
    const { experiment, events } = recorder('one-per-network');
    expect(await runExperiment(experiment, options(out))).toBe(0);
    const runtime = defaultRuntime().name;
    expect(runFolders(out).map((doc) => doc.slices)).toEqual([[`loopback/${runtime}/plain`], [`loopback/${runtime}/tls`], [`loopback-2/${runtime}/plain`], [`loopback-2/${runtime}/tls`]]);
    expect(events.filter((e) => e.startsWith('open') || e.startsWith('stop'))).toEqual([
      'open loopback plain', 'stop loopback plain', 'open loopback tls', 'stop loopback tls', 'open loopback-2 plain', 'stop loopback-2 plain', 'open loopback-2 tls', 'stop loopback-2 tls',
    ]);
  });

  it('on SIGINT (after-visit): the slice in progress ends, no other starts, what was measured is written marked incomplete, exit 130', async () => {
    const { experiment, events } = recorder('one-per-network', 'after-visit', (slice) => {
      if (slice.startsWith('loopback/')) process.emit('SIGINT', 'SIGINT');
    });
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await runExperiment(experiment, options(out))).toBe(130);
    } finally {
      stderr.mockRestore();
    }
    const docs = runFolders(out);
    expect(docs).toHaveLength(1);
    expect(docs[0]).toMatchObject({ incomplete: true, networks: ['loopback'] });
    expect(docs[0].slices).toHaveLength(1);
    expect(events).toContain('stop loopback plain');
    expect(process.listenerCount('SIGINT')).toBe(0);
  });

  it('a measurement that throws: exit 1, what was kept stopped, the document left marked incomplete', async () => {
    const { experiment, events } = recorder('one-per-run', 'now', (slice) => {
      if (slice.endsWith('/tls')) throw new Error('the servers died');
    });
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await runExperiment(experiment, options(out))).toBe(1);
      expect(stderr.mock.calls.map((c) => String(c[0])).join('')).toContain('demo: failed: the servers died');
    } finally {
      stderr.mockRestore();
    }
    expect(runFolders(out)[0]).toMatchObject({ incomplete: true, slices: [`loopback/${defaultRuntime().name}/plain`] });
    expect(events).toContain('stop loopback,loopback-2');
    expect(events).not.toContain('report');
  });
});

describe("the tools' experiments", () => {
  it("bench:all: one folder for every network, runtime and security mode (its reports compare them), apps on each runtime's node, a signal ends the visit", () => {
    expect(matrixExperiment(parseOptions([], '/work'), [])).toMatchObject({ tool: 'bench', folders: 'one-per-run', runtimes: 'apps', interrupt: 'after-visit' });
  });

  it('a suite: a folder per network (and per runtime: the suite runs again on its node, its process making the calls), a signal stops it at once', () => {
    expect(suiteExperiment(ECHO_SUITE, parseSuiteArgs(ECHO_SUITE.spec, []), [])).toMatchObject({ tool: 'echo', folderPrefix: 'echo', folders: 'one-per-network', runtimes: 'process', interrupt: 'now' });
  });
});
