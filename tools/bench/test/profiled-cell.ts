// Hand-made cells with CPU profiles (--cpu-profile) for the analysis and export specs: a JSON and a gRPC
// cell of one case whose profiles differ in known packages, built through the same summary a run makes.
import { summarizeProfile, type CellCpuProfile, type ProfileTree } from '../src/model/cpu-profile';
import type { Cell } from '../src/model/model';
import { handMadeCell } from './hand-made-cell';
import { phaseBreakdown } from '../src/model/results';
import { summarize } from '../src/model/stats';

const at = (name: string, file: string, selfUs: number, children: ProfileTree[] = []): ProfileTree => ({ frame: { name, file, line: 3 }, selfUs, children });
const NM = '/w/node_modules';

/** The client and both servers of one cell, from call trees given per process (3 calls each). */
export function profileOf(trees: Record<'client' | 'server-a' | 'server-b', ProfileTree>): CellCpuProfile {
  return {
    intervalUs: 200,
    processes: Object.entries(trees).map(([process, tree]) => summarizeProfile(tree, { process, format: 'cpuprofile', file: `profiles/x/${process}.cpuprofile`, calls: 3 })),
  };
}

const idleServer = at('(root)', '', 0, [at('(idle)', '', 30_000)]);

/** JSON: server-a in express and its controller, the client in undici and JSON.parse. */
export const JSON_PROFILE = profileOf({
  'server-a': at('(root)', '', 0, [at('(idle)', '', 9_000), at('handle', `${NM}/express/lib/router/layer.js`, 6_000, [at('json', '/w/apps/server-a/dist/samples.controller.js', 9_000)])]),
  'server-b': idleServer,
  client: at('(root)', '', 0, [at('(idle)', '', 12_000), at('request', 'node:internal/deps/undici/undici', 3_000, [at('parse', '', 9_000)])]),
});

/** gRPC: server-b in protobufjs and grpc-js, the client in grpc-js, protobufjs and GC. */
export const GRPC_PROFILE = profileOf({
  'server-a': idleServer,
  'server-b': at('(root)', '', 0, [at('(idle)', '', 6_000), at('sendUnaryMessage', `${NM}/@grpc/grpc-js/build/src/server-call.js`, 9_000, [at('encode', `${NM}/protobufjs/src/writer.js`, 30_000)])]),
  client: at('(root)', '', 0, [at('(idle)', '', 3_000), at('onData', `${NM}/@grpc/grpc-js/build/src/subchannel-call.js`, 12_000, [at('decode', `${NM}/protobufjs/src/reader.js`, 15_000)]), at('(garbage collector)', '', 6_000)]),
});

/** A JSON and a gRPC cell of ①-2 with their profiles; the phases make the remainder what separates them. */
export function profiledCells(): Cell[] {
  const phases = { serverBuildMs: 1, serverEncodeMs: 2, clientDecodeMs: 3 };
  const grpcMs = [90, 100, 110];
  return [
    handMadeCell({ transport: 'json', cpuProfile: JSON_PROFILE, phases: phaseBreakdown([40, 50, 60], phases) }),
    handMadeCell({ transport: 'grpc', samplesMs: grpcMs, summary: summarize(grpcMs), cpuProfile: GRPC_PROFILE, phases: phaseBreakdown(grpcMs, phases) }),
  ];
}
