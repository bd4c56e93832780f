import { cellPackagesPerCall, goPackageOf, nodePackageOf, packagePerCallMs, summarizeProfile, type ProfileTree } from '../../src/model/cpu-profile';

const node = (name: string, file: string, selfUs: number, children: ProfileTree[] = []): ProfileTree => ({ frame: { name, file, line: 1 }, selfUs, children });

describe('who a frame is counted to', () => {
  it.each([
    [{ name: 'sendMessage', file: 'file:///w/node_modules/@grpc/grpc-js/build/src/call.js' }, 'grpc-js'],
    [{ name: 'encode', file: '/w/node_modules/protobufjs/src/writer.js' }, 'protobufjs'],
    [{ name: 'fromBinary', file: '/w/node_modules/@bufbuild/protobuf/dist/cjs/from-binary.js' }, 'protobuf-es'],
    [{ name: 'handle', file: '/w/node_modules/@nestjs/core/router/router-proxy.js' }, 'Nest core'],
    [{ name: 'send', file: '/w/node_modules/@nestjs/microservices/client/client-tcp.js' }, 'Nest microservices'],
    [{ name: 'next', file: '/w/node_modules/express/lib/router/index.js' }, 'express'],
    [{ name: 'x', file: '/w/node_modules/@nestjs/platform-express/node_modules/express/lib/x.js' }, 'express'],
    [{ name: 'subscribe', file: '/w/node_modules/rxjs/dist/cjs/internal/Observable.js' }, 'rxjs'],
    [{ name: 'request', file: '/w/node_modules/axios/lib/core/Axios.js' }, 'axios'],
    [{ name: 'x', file: 'node:internal/deps/undici/undici' }, 'undici'],
    [{ name: 'onStreamRead', file: 'node:internal/http2/core' }, 'node:http2'],
    [{ name: 'parserOnIncoming', file: 'node:_http_server' }, 'node:http'],
    [{ name: 'onStreamRead', file: 'node:internal/stream_base_commons' }, 'node:net/streams'],
    [{ name: 'post', file: 'node:internal/worker/io' }, 'node internals'],
    [{ name: '(garbage collector)', file: '' }, 'V8 GC'],
    [{ name: '(idle)', file: '' }, '(idle)'],
    [{ name: '(program)', file: '' }, '(program)'],
    [{ name: '(root)', file: '' }, '(root)'],
    [{ name: 'parse', file: '' }, 'JSON'],
    [{ name: 'utf8Slice', file: '' }, 'V8 builtins'],
    [{ name: 'buildRows', file: '/w/libs/samples/dist/rows.js' }, 'bench lib samples'],
    [{ name: 'json', file: '/w/apps/server-a/dist/samples.controller.js' }, 'bench app server-a'],
    [{ name: 'x', file: '/w/node_modules/left-pad/index.js' }, 'left-pad'],
  ])('%j → %s', (frame, expected) => expect(nodePackageOf(frame)).toBe(expected));

  it.each([
    ['google.golang.org/grpc/internal/transport.(*http2Client).reader', 'grpc-go'],
    ['google.golang.org/protobuf/internal/impl.consumeString', 'protobuf-go'],
    ['encoding/json.(*decodeState).object', 'JSON'],
    ['runtime.gcDrain', 'Go GC'],
    ['runtime.mallocgc', 'Go alloc'],
    ['runtime.futex', 'Go runtime'],
    ['net/http.(*conn).serve', 'net/http'],
    ['net/http.(*http2serverConn).serve', 'net/http (HTTP/2)'],
    ['syscall.Syscall6', 'syscalls/net'],
    ['goreference/internal/samples.Values', 'bench code'],
    ['unicode/utf8.ValidString', 'unicode/utf8'],
  ])('Go %s → %s', (name, expected) => expect(goPackageOf({ name })).toBe(expected));
});

describe('summarizeProfile', () => {
  // 10 ms sampled: 4 idle, 3 in grpc-js's own code, 2 in protobufjs under it, 1 in GC.
  const tree = node('(root)', '', 0, [
    node('(idle)', '', 4000),
    node('onData', '/w/node_modules/@grpc/grpc-js/a.js', 3000, [node('decode', '/w/node_modules/protobufjs/r.js', 2000)]),
    node('(garbage collector)', '', 1000),
  ]);
  const summary = summarizeProfile(tree, { process: 'client', format: 'cpuprofile', file: 'profiles/x/client.cpuprofile', calls: 2 });

  it('adds up self time by package, idle apart from busy', () => {
    expect(summary.sampledMs).toBe(10);
    expect(summary.busyMs).toBe(6);
    expect(summary.packages).toEqual([
      { package: '(idle)', selfMs: 4 },
      { package: 'grpc-js', selfMs: 3 },
      { package: 'protobufjs', selfMs: 2 },
      { package: 'V8 GC', selfMs: 1 },
    ]);
    expect(packagePerCallMs(summary, 'grpc-js')).toBe(1.5);
    expect(packagePerCallMs(summary, 'rxjs')).toBe(0);
  });

  it('lists the top functions without (idle), with where they are', () => {
    expect(summary.functions.map((f) => [f.name, f.package, f.selfMs])).toEqual([
      ['onData', 'grpc-js', 3],
      ['decode', 'protobufjs', 2],
      ['(garbage collector)', 'V8 GC', 1],
    ]);
    expect(summary.functions[0].where).toBe('@grpc/grpc-js/a.js:1');
  });

  it('keeps a flame tree of the busy time: totals include callees, (idle) is left out', () => {
    expect(summary.flame.totalMs).toBe(6);
    expect(summary.flame.children?.map((c) => [c.name, c.totalMs, c.selfMs])).toEqual([
      ['onData', 5, 3],
      ['(garbage collector)', 1, 1],
    ]);
  });

  it("adds a cell's processes up per call, without (idle)", () => {
    const server = summarizeProfile(node('(root)', '', 0, [node('encode', '/w/node_modules/protobufjs/w.js', 4000)]), { process: 'server-b', format: 'cpuprofile', file: null, calls: 2 });
    const sums = cellPackagesPerCall({ intervalUs: 200, processes: [summary, server] });
    expect(sums.get('protobufjs')).toBe(3);
    expect(sums.has('(idle)')).toBe(false);
  });
});
