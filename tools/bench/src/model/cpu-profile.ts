// A cell's CPU profiles (--cpu-profile) as the document keeps them: per process, the sampled time by
// package (who spends it), the top functions, and a pruned call tree the report draws as a flame graph.
// The profiles themselves are files in the run folder (.cpuprofile for Node, pprof for Go); this is what
// every export reads. Pure: the run (run/cpu-profiles.ts) builds the trees, this names and sums them.

/** One frame of a stack: a function and where it is (a Node script's URL or path, a Go source file). */
export interface ProfileFrame {
  name: string;
  file: string;
  line: number;
}

/** A call tree: each node a frame under its caller, with the time sampled in it (self) in µs. */
export interface ProfileTree {
  frame: ProfileFrame;
  selfUs: number;
  children: ProfileTree[];
}

/** Time sampled in one package's own code (self time), over all the cell's profiled calls. */
export interface PackageTime {
  package: string;
  selfMs: number;
}

export interface FunctionTime {
  name: string;
  package: string;
  /** Where it is: the file (without the workspace's path) and line. */
  where: string;
  selfMs: number;
}

/** A flame graph's node: total is its own time and its callees'; children above a share of the whole. */
export interface FlameNode {
  name: string;
  package: string;
  totalMs: number;
  selfMs: number;
  children?: FlameNode[];
}

/** One process of a cell's set (client, server-a, server-b), profiled over the cell's timed calls. */
export interface ProcessCpuProfile {
  process: string;
  /** The profiler: V8's (Node, `.cpuprofile`) or Go's runtime/pprof (gzipped protobuf). */
  format: 'cpuprofile' | 'pprof';
  /** The profile's file, relative to the run folder; null when none could be written. */
  file: string | null;
  /** Timed calls profiled. */
  calls: number;
  /** All sampled time, waiting ((idle)) included: Go samples only time on a CPU, so it has none. */
  sampledMs: number;
  /** Sampled time on a CPU: sampledMs without (idle). */
  busyMs: number;
  /** Every package's self time, largest first. */
  packages: PackageTime[];
  /** The functions with the most self time, largest first (TOP_FUNCTIONS). */
  functions: FunctionTime[];
  /** The call tree without (idle), its nodes under FLAME_MIN_SHARE of busyMs left out. */
  flame: FlameNode;
  /** The sampling interval of this process's profiler, µs (V8's and Go's differ); absent when it wrote no profile. */
  intervalUs?: number;
  /** Why a profile is missing or partial (a stop that failed); absent when every call was profiled. */
  error?: string;
}

export interface CellCpuProfile {
  /** The sampling interval asked of the Node apps' profilers, µs (each process states its own). */
  intervalUs: number;
  processes: ProcessCpuProfile[];
}

/**
 * What the profile exports read of a profiled result: bench:all's cells, and a suite's measured units
 * (its own cell key in the same fields: the suite's unit as the case, what it compares as the transport).
 */
export interface ProfiledRecord {
  network?: string;
  runtime?: string;
  security?: string;
  variant: string;
  case: string;
  transport: string;
  cpuProfile?: CellCpuProfile;
}

export const TOP_FUNCTIONS = 12;

/** What a profiled run's reports say at their top: its times are the profiled calls', slower than without. */
export function describeProfiledRun(settings: { cpuProfile?: { intervalUs: number } }): string | null {
  if (!settings.cpuProfile) return null;
  return `profiled run (--cpu-profile, every ${settings.cpuProfile.intervalUs} µs): every timed call ran under the apps' CPU profilers, which made them slower (docs/method.md, "CPU profiles"); time the cells in a run without --cpu-profile`;
}
/** A flame node narrower than this share of its process's busy time is left out of the document. */
export const FLAME_MIN_SHARE = 0.004;
/** Package names of the profilers' own pseudo-frames. */
export const IDLE = '(idle)';

/** The packages users ask about, by the npm package a script's path is in. */
const NPM_PACKAGES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^@grpc\/grpc-js$/, 'grpc-js'],
  [/^(@grpc\/proto-loader|protobufjs\d*|@protobufjs\/.+|long)$/, 'protobufjs'],
  [/^@bufbuild\/protobuf$/, 'protobuf-es'],
  [/^@connectrpc\/.+$/, 'connect-es'],
  [/^@nestjs\/(core|common)$/, 'Nest core'],
  [/^@nestjs\/microservices$/, 'Nest microservices'],
  [/^(@nestjs\/platform-express|express|body-parser|router|raw-body|finalhandler|send|serve-static|path-to-regexp|iconv-lite|type-is|qs|on-finished|debug)$/, 'express'],
  [/^(@nestjs\/platform-fastify|fastify|@fastify\/.+|find-my-way|light-my-request|avvio|fast-json-stringify|pino|secure-json-parse)$/, 'fastify'],
  [/^rxjs$/, 'rxjs'],
  [/^undici$/, 'undici'],
  [/^(axios|follow-redirects|form-data)$/, 'axios'],
];

/** Node's own modules, by the `node:` URL V8 names them with. */
const NODE_MODULES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^node:internal\/deps\/undici/, 'undici'],
  [/^node:(internal\/)?http2/, 'node:http2'],
  [/^node:(_http_|https?$|internal\/http)/, 'node:http'],
  [/^node:(_tls|tls$|internal\/tls)/, 'node:tls'],
  [/^node:(net$|stream$|internal\/(net|stream_base_commons|streams|js_stream_socket))/, 'node:net/streams'],
  [/^node:internal\/(timers|process\/task_queues|async_hooks)/, 'node:timers/tasks'],
];

/** Go's packages and the runtime's parts, by the function's qualified name. */
const GO_PACKAGES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^google\.golang\.org\/grpc/, 'grpc-go'],
  [/^google\.golang\.org\/protobuf/, 'protobuf-go'],
  [/^golang\.org\/x\/net\/http2/, 'x/net/http2'],
  [/^net\/http\.(\(\*)?http2/, 'net/http (HTTP/2)'],
  [/^net\/http/, 'net/http'],
  [/^encoding\/json/, 'JSON'],
  [/^crypto\//, 'crypto/tls'],
  [/^runtime\.(gc|scan|mark|sweep|bgsweep|bgscavenge|greyobject|findObject|wbBuf|heapBits|typePointers|\(\*gc|\(\*mspan\)\.(sweep|mark)|\(\*sweep)/, 'Go GC'],
  [/^runtime\.(malloc|newobject|makeslice|growslice|mallocgc|memclr|\(\*mcache\)|\(\*mheap\)|\(\*mcentral\)|nextFreeFast)/, 'Go alloc'],
  [/^runtime\./, 'Go runtime'],
  [/^(syscall|internal\/poll|internal\/runtime\/syscall|net\.|os\.)/, 'syscalls/net'],
  [/^goreference\//, 'bench code'],
];

const JSON_BUILTINS = /^(JSON\.)?(parse|stringify|JSONParse|JSONStringify|SerializeJSON|JsonParse|JsonStringify)$/;

function npmPackageOf(file: string): string | null {
  const match = /.*node_modules\/(@[^/]+\/[^/]+|[^/@][^/]*)\//.exec(file);
  if (!match) return null;
  return NPM_PACKAGES.find(([pattern]) => pattern.test(match[1]))?.[1] ?? match[1];
}

/** Who a Node frame's time is counted to: an npm package, a part of Node, V8's own, or the bench's code. */
export function nodePackageOf(frame: Pick<ProfileFrame, 'name' | 'file'>): string {
  if (frame.name === '(idle)') return IDLE;
  if (frame.name === '(program)' || frame.name === '(root)') return frame.name;
  if (frame.name === '(garbage collector)') return 'V8 GC';
  if (frame.file === '') return JSON_BUILTINS.test(frame.name) ? 'JSON' : 'V8 builtins';
  const npm = npmPackageOf(frame.file);
  if (npm) return npm;
  if (frame.file.startsWith('node:')) return NODE_MODULES.find(([pattern]) => pattern.test(frame.file))?.[1] ?? 'node internals';
  const own = /\/(apps|libs)\/([^/]+)\//.exec(frame.file);
  return own ? `bench ${own[1] === 'apps' ? 'app' : 'lib'} ${own[2]}` : 'other';
}

/** Who a Go frame's time is counted to, by its package path. */
export function goPackageOf(frame: Pick<ProfileFrame, 'name'>): string {
  return GO_PACKAGES.find(([pattern]) => pattern.test(frame.name))?.[1] ?? (frame.name.split('.')[0] || 'other');
}

const ms = (us: number) => Math.round(us) / 1000;

/** A file as the reader knows it: from its npm package, or from the workspace's apps/, libs/ or tools/. */
function shorter(file: string): string {
  const plain = file.replace(/^file:\/\//, '');
  const npm = plain.lastIndexOf('node_modules/');
  if (npm >= 0) return plain.slice(npm + 'node_modules/'.length);
  return /\/((apps|libs|tools)\/.*)$/.exec(plain)?.[1] ?? plain;
}

function totalOf(tree: ProfileTree): number {
  return tree.children.reduce((sum, child) => sum + totalOf(child), tree.selfUs);
}

function flameOf(tree: ProfileTree, packageOf: (frame: ProfileFrame) => string, minUs: number): FlameNode | null {
  const totalUs = totalOf(tree);
  if (totalUs < minUs) return null;
  const children = tree.children.map((child) => flameOf(child, packageOf, minUs)).filter((c): c is FlameNode => c !== null).sort((a, b) => b.totalMs - a.totalMs);
  return { name: tree.frame.name || '(anonymous)', package: packageOf(tree.frame), totalMs: ms(totalUs), selfMs: ms(tree.selfUs), ...(children.length ? { children } : {}) };
}

/** The tree without its (idle) nodes: what the flame graph draws. */
function withoutIdle(tree: ProfileTree, packageOf: (frame: ProfileFrame) => string): ProfileTree {
  return { ...tree, children: tree.children.filter((c) => packageOf(c.frame) !== IDLE).map((c) => withoutIdle(c, packageOf)) };
}

/** A process's summary from its call tree: packages, top functions, the pruned flame graph. */
export function summarizeProfile(
  tree: ProfileTree,
  process: Pick<ProcessCpuProfile, 'process' | 'format' | 'file' | 'calls'>,
  packageOf: (frame: ProfileFrame) => string = process.format === 'pprof' ? goPackageOf : nodePackageOf,
): ProcessCpuProfile {
  const packages = new Map<string, number>();
  const functions = new Map<string, { frame: ProfileFrame; us: number }>();
  let sampledUs = 0;
  const walk = (node: ProfileTree) => {
    sampledUs += node.selfUs;
    if (node.selfUs > 0) {
      const name = packageOf(node.frame);
      packages.set(name, (packages.get(name) ?? 0) + node.selfUs);
      const key = `${node.frame.name}\u0000${node.frame.file}`;
      const entry = functions.get(key) ?? { frame: node.frame, us: 0 };
      entry.us += node.selfUs;
      functions.set(key, entry);
    }
    node.children.forEach(walk);
  };
  walk(tree);
  const idleUs = packages.get(IDLE) ?? 0;
  const busyUs = sampledUs - idleUs;
  const busy = withoutIdle(tree, packageOf);
  return {
    ...process,
    sampledMs: ms(sampledUs),
    busyMs: ms(busyUs),
    packages: [...packages].map(([name, us]) => ({ package: name, selfMs: ms(us) })).sort((a, b) => b.selfMs - a.selfMs),
    functions: [...functions.values()]
      .filter((f) => packageOf(f.frame) !== IDLE)
      .sort((a, b) => b.us - a.us)
      .slice(0, TOP_FUNCTIONS)
      .map((f) => ({ name: f.frame.name || '(anonymous)', package: packageOf(f.frame), where: f.frame.file ? `${shorter(f.frame.file)}:${f.frame.line}` : '', selfMs: ms(f.us) })),
    flame: flameOf(busy, packageOf, Math.max(1, busyUs * FLAME_MIN_SHARE)) ?? { name: busy.frame.name, package: packageOf(busy.frame), totalMs: 0, selfMs: 0 },
  };
}

/** A package's self time per profiled call of one process, ms (0 when it has none). */
export function packagePerCallMs(profile: ProcessCpuProfile, name: string): number {
  const found = profile.packages.find((p) => p.package === name);
  return found && profile.calls > 0 ? found.selfMs / profile.calls : 0;
}

/** Every process's package times of a cell added up, per call: the set's CPU by who spends it. */
export function cellPackagesPerCall(profile: CellCpuProfile): Map<string, number> {
  const sums = new Map<string, number>();
  for (const p of profile.processes) for (const pkg of p.packages) if (pkg.package !== IDLE) sums.set(pkg.package, (sums.get(pkg.package) ?? 0) + packagePerCallMs(p, pkg.package));
  return sums;
}
