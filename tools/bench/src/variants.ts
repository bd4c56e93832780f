import type { AppName } from './apps';

/** A variant is a set of three processes the bench starts and drives through the same client API. */
export interface VariantRecord {
  id: string;
  description: string;
  /** Each app's entry point, relative to the workspace root, run with node. */
  mains: Readonly<Record<AppName, string>>;
  /** Extra environment for all three processes. */
  env: Readonly<Record<string, string>>;
}

const NEST_MAINS = {
  'server-a': 'apps/server-a/dist/main.js',
  'server-b': 'apps/server-b/dist/main.js',
  client: 'apps/client/dist/main.js',
} as const;

/** The variants, as data: adding one is adding a record (and the apps it names). */
export const VARIANTS: readonly VariantRecord[] = Object.freeze([
  {
    id: 'blog',
    description: "the blog's configuration: Nest 11 + Express, @nestjs/axios on Node's default agent, Nest gRPC with proto-loader",
    mains: NEST_MAINS,
    env: { VARIANT: 'blog' },
  },
  {
    id: 'tuned',
    description: 'the same Nest apps with the named tunings (libs/config TUNINGS) applied',
    mains: NEST_MAINS,
    env: { VARIANT: 'tuned' },
  },
  {
    id: 'bare',
    description: 'no framework: node:http + JSON.parse/stringify with the default agent, plain @grpc/grpc-js with proto-loader',
    mains: {
      'server-a': 'apps/bare/dist/server-a.js',
      'server-b': 'apps/bare/dist/server-b.js',
      client: 'apps/bare/dist/client.js',
    },
    env: {} as Record<string, string>,
  },
]);

/** Finds variants by id, in catalog order; unknown ids are an error listing what exists. */
export function selectVariants(ids: readonly string[]): VariantRecord[] {
  const unknown = ids.filter((id) => !VARIANTS.some((v) => v.id === id));
  if (unknown.length > 0) {
    throw new Error(`unknown variant ${unknown.map((u) => JSON.stringify(u)).join(', ')}; known variants: ${VARIANTS.map((v) => v.id).join(', ')}`);
  }
  return VARIANTS.filter((v) => ids.includes(v.id));
}
