import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { usesStage } from '../../src/network/stage';
import { findPath } from '../../src/network/path';
import { deployedNetwork } from '../../src/run/deployed-network';

// The network a --client-url run is labelled with, from the environment the deployment gives the bench:
// docker-compose.yml's bench service (BENCH_DEPLOYMENT) and a pod's (the kubelet's KUBERNETES_SERVICE_HOST).
const ROOT = path.resolve(__dirname, '../../../..');
const CLIENT = 'http://client:3000';

describe('deployedNetwork', () => {
  const loopback = findPath('loopback');

  it("names the compose run's network the Docker bridge, from the environment docker-compose.yml gives the bench", () => {
    const compose = parse(fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: { bench: { environment: Record<string, string> } } };
    const network = deployedNetwork(loopback, CLIENT, compose.services.bench.environment);
    expect(network.name).toBe('docker-bridge');
    expect(network.network.name).toBe('docker-bridge');
    expect(network.network.description).toMatch(/^The Docker bridge network docker-compose made .*; no stage: the apps run where their deployment put them, reached at http:\/\/client:3000 \(--client-url\)$/);
    // No stage of the bench's own: nothing is built or calibrated for it, and the record says where the apps were.
    expect(network.network.topology).toBe('deployment');
    expect(usesStage(network.network)).toBe(false);
  });

  it('names a pod network from the variable the kubelet sets in every container, and any other deployment by its name', () => {
    expect(deployedNetwork(loopback, CLIENT, { KUBERNETES_SERVICE_HOST: '198.19.226.1' }).name).toBe('pod-network');
    expect(deployedNetwork(loopback, CLIENT, { BENCH_DEPLOYMENT: 'Nomad 1.9' })).toMatchObject({ name: 'nomad-1-9-network', network: { description: expect.stringMatching(/^The network Nomad 1\.9 put the apps on; /) } });
  });

  it('keeps the given name where no deployment is known (apps started by hand), saying there is no stage', () => {
    const network = deployedNetwork(loopback, CLIENT, {});
    expect(network.name).toBe('loopback');
    expect(network.network.description).toBe('No stage: the apps run where their deployment put them, reached at http://client:3000 (--client-url)');
  });
});
