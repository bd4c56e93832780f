// Checks a run folder that came back from a deployment (deploy/compose/check.sh, deploy/k8s/local-cluster.sh):
//
//   node deploy/compose/check-run.js RUN_DIR [docker-compose|kubernetes]
//
// Every planned cell ran and is ok; the cells carry the variant and the Node major the running client
// reports, and that is the project's (package.json engines); the client and the bench say they ran in a
// deployment of that kind, with their CPUs and memory limit; the cells, the path the client measured and
// the report name the deployment's network (the Docker bridge, the pod network), never "loopback".
// Prints one line of what ran, exits 1 with the reasons otherwise.
const fs = require('node:fs');
const path = require('node:path');

const [runDir, deployment = 'docker-compose'] = process.argv.slice(2);
const doc = JSON.parse(fs.readFileSync(path.join(runDir, 'results.json'), 'utf8'));
const markdown = fs.readFileSync(path.join(runDir, 'results.md'), 'utf8');
const pinnedNode = JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8')).engines.node;
// The network's name for each deployment (tools/bench/src/run/deployed-network.ts; deploy-check.spec.ts keeps them equal).
const NETWORKS = { 'docker-compose': 'docker-bridge', kubernetes: 'pod-network' };
const network = NETWORKS[deployment];
const problems = [];
const expect = (ok, what) => ok || problems.push(what);

const failed = doc.results.filter((r) => !r.ok);
expect(doc.results.length > 0, 'no results');
expect(!doc.incomplete, 'the run is marked incomplete');
expect(failed.length === 0, `failed: ${failed.map((r) => `${r.case} ${r.transport} (${r.failure?.message ?? '?'})`).join('; ')}`);
const [variant, client] = Object.entries(doc.provenance.clients ?? {})[0] ?? [];
expect(client, 'no client in provenance.clients');
const major = (version) => String(version).replace(/^v/, '').split('.')[0];
expect(major(client?.node) === major(pinnedNode), `the client ran Node ${client?.node}, the project pins ${pinnedNode}`);
for (const r of doc.results) {
  expect(r.variant === variant, `${r.case} ${r.transport} is labelled ${r.variant}, the client is ${variant}`);
  expect(r.runtime === major(client?.node), `${r.case} ${r.transport} is labelled Node ${r.runtime}, the client runs ${client?.node}`);
  expect(r.network === network, `${r.case} ${r.transport} is labelled network ${r.network}, not ${network}`);
}
expect(doc.provenance.path?.[`${network}/${variant}`], `no path measured as ${network}/${variant} (provenance.path has ${Object.keys(doc.provenance.path ?? {}).join(', ') || 'none'})`);
expect(markdown.includes(`- network ${network}: `), `results.md does not name the network ${network}`);
for (const [who, info] of [['client', client], ['bench', doc.provenance.bench]]) {
  const c = info?.confinement;
  expect(c?.deployment === deployment, `the ${who} says it ran ${c?.deployment ? `under ${c.deployment}` : 'as a plain process'}, not under ${deployment}`);
  expect(c?.memoryLimitBytes > 0, `the ${who} has no memory limit of its own`);
  expect(c?.addresses?.length > 0, `the ${who} has no address beyond loopback`);
}
expect(!/every app on 127\.0\.0\.1|share this machine's cores \(not pinned/.test(markdown), 'results.md describes a loopback run');
expect(markdown.includes('apps started by their deployment'), 'results.md does not describe the deployment');

if (problems.length > 0) {
  console.error(`check-run: ${runDir}:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
const c = client.confinement;
console.log(
  `check-run: ${runDir}: ${doc.results.length} cells ok, variant ${variant}, Node ${client.node}, network ${network}; ` +
    `client under ${c.deployment}, CPUs ${c.cpus}, memory limit ${(c.memoryLimitBytes / 2 ** 30).toFixed(1)} GiB, heap ${(c.heapLimitBytes / 2 ** 30).toFixed(1)} GiB, ${c.addresses.join(', ')}`,
);
