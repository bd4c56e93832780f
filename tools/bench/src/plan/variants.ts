import { ablationOf, ablationVariant, nestVariantEnv, TUNINGS, tuningTransports } from '@bench/config';
import type { AppName } from './app-names';
import { BLOG_TRANSPORTS, TRANSPORTS, type Transport } from '../model';

/** A variant is a set of three processes the bench starts and drives through the same client API. */
export interface VariantRecord {
  id: string;
  description: string;
  /** Each app's entry point, relative to the workspace root: a script run with node, or an executable. */
  mains: Readonly<Record<AppName, string>>;
  /** How the entry points run. */
  runtime: 'node' | 'executable';
  /** Extra environment for all three processes. */
  env: Readonly<Record<string, string>>;
  /** Builds the entry points when they are missing (for variants outside the Nx build, e.g. Go); may decline. */
  build?: readonly string[];
  /** Optional variants are skipped, with a message, when they cannot be built here; others fail the run. */
  optional?: boolean;
  /** Its apps serve the payload endpoints of libs/payloads (only the Nest apps do). */
  servesPayloads?: boolean;
  /** The transports its client serves (absent: the blog's two). */
  transports?: readonly Transport[];
  /** For an ablation variant: the variant it flips one tuning of, the tuning, and the transports that tuning changes. */
  ablation?: { base: 'tuned' | 'blog'; tuning: string; transports: readonly Transport[] };
}

/** The transports a variant's client serves. */
export function servedTransports(variant: VariantRecord): readonly Transport[] {
  return variant.transports ?? BLOG_TRANSPORTS;
}

const NEST_MAINS = {
  'server-a': 'apps/server-a/dist/main.js',
  'server-b': 'apps/server-b/dist/main.js',
  client: 'apps/client/dist/main.js',
} as const;

const GO_MAINS = {
  'server-a': 'tools/go-reference/dist/server-a',
  'server-b': 'tools/go-reference/dist/server-b',
  client: 'tools/go-reference/dist/client',
} as const;
const GO_BUILD = ['bash', 'tools/go-reference/build.sh'];

/** The variants, as data: adding one is adding a record (and the apps it names). */
export const VARIANTS: readonly VariantRecord[] = Object.freeze([
  {
    id: 'blog',
    description: "the blog's configuration: Nest + Express (the project's Nest, 12 since issue #42), @nestjs/axios on Node's default agent, Nest gRPC with proto-loader",
    mains: NEST_MAINS,
    runtime: 'node',
    env: nestVariantEnv('blog'),
    servesPayloads: true,
    transports: TRANSPORTS,
  },
  {
    id: 'tuned',
    description: 'the same Nest apps with the named tunings (libs/config TUNINGS) applied',
    mains: NEST_MAINS,
    runtime: 'node',
    env: nestVariantEnv('tuned'),
    servesPayloads: true,
    transports: TRANSPORTS,
  },
  {
    id: 'blog-window',
    description: "the blog's configuration with one change: the gRPC client's HTTP/2 flow-control window raised to 16 MiB (tuning http2-window alone)",
    mains: NEST_MAINS,
    runtime: 'node',
    env: nestVariantEnv('blog-window'),
    servesPayloads: true,
    transports: TRANSPORTS,
  },
  {
    id: 'bare',
    description: 'no framework: node:http + JSON.parse/stringify with the default agent, plain @grpc/grpc-js with proto-loader',
    mains: {
      'server-a': 'apps/bare/dist/server-a.js',
      'server-b': 'apps/bare/dist/server-b.js',
      client: 'apps/bare/dist/client.js',
    },
    runtime: 'node',
    env: {} as Record<string, string>,
  },
  {
    id: 'go',
    description: 'reference, not Node: Go net/http + encoding/json and grpc-go (tools/go-reference): what this machine can do',
    mains: GO_MAINS,
    runtime: 'executable',
    env: {} as Record<string, string>,
    build: GO_BUILD,
    optional: true,
  },
  {
    id: 'go-session-reuse',
    description: "go with tuning tls-session-reuse: its client's crypto/tls keeps a ClientSessionCache (TLS_SESSION_REUSE=on), so new connections resume",
    mains: GO_MAINS,
    runtime: 'executable',
    env: { TLS_SESSION_REUSE: 'on' },
    build: GO_BUILD,
    optional: true,
  },
]);

/** The entry points a variant still lacks in this workspace (empty when it can start). */
export function missingMains(variant: VariantRecord, exists: (relativePath: string) => boolean): string[] {
  return Object.values(variant.mains).filter((main) => !exists(main));
}

/**
 * The record of an ablation variant (`tuned-without-<tuning>`, `blog-with-<tuning>`): the Nest apps with
 * one tuning flipped, measured on the transports that tuning changes. Derived, so a new tuning needs no
 * new record here. Undefined for any other id.
 */
export function ablationRecord(id: string): VariantRecord | undefined {
  const ablation = ablationOf(id);
  if (!ablation) return undefined;
  const base = VARIANTS.find((v) => v.id === ablation.base)!;
  const { tuning } = ablation;
  return {
    ...base,
    id,
    description: ablation.base === 'tuned' ? `tuned with ${tuning.id} switched off` : `the blog's configuration with ${tuning.id} alone switched on`,
    env: nestVariantEnv(ablationVariant(ablation.base, tuning.id)),
    ablation: { base: ablation.base, tuning: tuning.id, transports: TRANSPORTS.filter((t) => tuningTransports(tuning).includes(t)) },
  };
}

/** The ablation variants for `--ablate`: for each base among `variantIds` (tuned, blog), one per tuning in `tuningIds`. */
export function ablationIds(variantIds: readonly string[], tuningIds: readonly string[]): string[] {
  const unknown = tuningIds.filter((id) => !TUNINGS.some((t) => t.id === id));
  if (unknown.length > 0) throw new Error(`unknown tuning ${unknown.map((u) => JSON.stringify(u)).join(', ')}; tunings: ${TUNINGS.map((t) => t.id).join(', ')}`);
  const bases = (['tuned', 'blog'] as const).filter((base) => variantIds.includes(base));
  if (bases.length === 0) throw new Error('--ablate flips tunings of tuned (off, one at a time) or blog (on, one at a time): add tuned or blog to --variants');
  return bases.flatMap((base) => tuningIds.map((id) => ablationVariant(base, id)));
}

/**
 * Finds variants by id: the catalog's in catalog order, then ablation variants in the order given;
 * unknown ids are an error listing what exists.
 */
export function selectVariants(ids: readonly string[]): VariantRecord[] {
  const unknown = ids.filter((id) => !VARIANTS.some((v) => v.id === id) && !ablationRecord(id));
  if (unknown.length > 0) {
    throw new Error(
      `unknown variant ${unknown.map((u) => JSON.stringify(u)).join(', ')}; known variants: ${VARIANTS.map((v) => v.id).join(', ')}, ` +
        'and tuned-without-<tuning> / blog-with-<tuning> (see --ablate)',
    );
  }
  const ablations = [...new Set(ids)].flatMap((id) => ablationRecord(id) ?? []);
  return [...VARIANTS.filter((v) => ids.includes(v.id)), ...ablations];
}

/** The transports a planned variant runs: those asked for, and of an ablation variant only those its tuning changes. */
export function plannedTransports(variant: VariantRecord, asked: readonly Transport[]): Transport[] {
  return asked.filter((t) => !variant.ablation || variant.ablation.transports.includes(t));
}
