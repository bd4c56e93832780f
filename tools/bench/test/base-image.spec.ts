import * as fs from 'node:fs';
import * as path from 'node:path';

// The Dockerfile's base (node:<version>-bookworm-slim@sha256:…) checked against Docker Hub wherever Docker
// Hub answers: the digest names an image index there, its linux/amd64 image is Node <version> (its
// config's NODE_VERSION), and whether the tag still points at it is said (a tag is re-pushed for Debian
// updates; the digest is what builds use). Where the registry cannot be reached (no route, no DNS: this
// project's CI reaches only npm, PyPI, the Go proxy, Maven Central and Debian) the test says so and
// passes without checking: bench:compose-check then builds its fallback base (deploy/compose/image.sh),
// and docs/docker-compose.md gives the pinning procedure.
const ROOT = path.resolve(__dirname, '../../..');
const REGISTRY = 'https://registry-1.docker.io';
const INDEX_TYPES = ['application/vnd.oci.image.index.v1+json', 'application/vnd.docker.distribution.manifest.list.v2+json'];
const IMAGE_TYPES = ['application/vnd.oci.image.manifest.v1+json', 'application/vnd.docker.distribution.manifest.v2+json'];

/** node:24.20.0-bookworm-slim@sha256:… → its parts. */
function pinnedBase(dockerfile: string): { repository: string; tag: string; version: string; digest: string } {
  const m = /^ARG NODE_IMAGE=(node):((\d+\.\d+\.\d+)-[a-z]+-slim)@(sha256:[0-9a-f]{64})$/m.exec(dockerfile);
  if (!m) throw new Error('the Dockerfile names no node:<version>-<debian>-slim@sha256:<digest> base');
  return { repository: `library/${m[1]}`, tag: m[2], version: m[3], digest: m[4] };
}

/** Why Docker Hub cannot be asked from here, or null when it answers. */
async function unreachable(): Promise<string | null> {
  try {
    await fetch(`${REGISTRY}/v2/`, { signal: AbortSignal.timeout(10_000) });
    return null;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return `${REGISTRY} cannot be reached (${cause?.code ?? cause?.message ?? (error as Error).message})`;
  }
}

describe("the Dockerfile's base image", () => {
  const base = pinnedBase(fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));

  it('is Node of the version its tag names, by a digest Docker Hub serves (checked where the registry answers)', async () => {
    const why = await unreachable();
    if (why) {
      console.log(`base image ${base.tag}@${base.digest}: not checked, ${why}; pinning procedure: docs/docker-compose.md#the-base-image`);
      return;
    }
    const { token } = (await (await fetch(`https://auth.docker.io/token?service=registry.docker.io&scope=repository:${base.repository}:pull`)).json()) as { token: string };
    const get = async (kind: string, ref: string, accept: string[]) => {
      const response = await fetch(`${REGISTRY}/v2/${base.repository}/${kind}/${ref}`, { headers: { Authorization: `Bearer ${token}`, Accept: accept.join(', ') } });
      expect({ ref, status: response.status }).toEqual({ ref, status: 200 });
      return { digest: response.headers.get('docker-content-digest'), body: (await response.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    const index = await get('manifests', base.digest, INDEX_TYPES);
    const amd64 = (index.body.manifests as { digest: string; platform?: { os: string; architecture: string } }[]).find((m) => m.platform?.os === 'linux' && m.platform.architecture === 'amd64');
    expect(amd64).toBeDefined();
    const image = await get('manifests', amd64!.digest, IMAGE_TYPES);
    const config = await get('blobs', image.body.config.digest, ['application/octet-stream']);
    expect(config.body.config.Env).toContain(`NODE_VERSION=${base.version}`);
    const tagged = await get('manifests', base.tag, INDEX_TYPES);
    console.log(`base image ${base.tag}: the pinned ${base.digest} is Node ${base.version}; the tag now points at ${tagged.digest === base.digest ? 'it' : `${tagged.digest} (re-pushed since: update the pin by docs/docker-compose.md#the-base-image when you want its Debian updates)`}`);
  }, 60_000);

  it('is read as its parts, and a base without a digest is refused', () => {
    expect(base).toMatchObject({ repository: 'library/node', tag: expect.stringMatching(/^24\.\d+\.\d+-bookworm-slim$/), digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
    expect(() => pinnedBase('ARG NODE_IMAGE=node:24-bookworm-slim\n')).toThrow(/names no node/);
  });
});
