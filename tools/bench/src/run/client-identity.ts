// A client the bench did not start (--client-url) says what it is; the run is labelled with that, never
// with a default. A run of tuned apps labelled `blog` would be read with full confidence and be wrong.
import { selectVariants, type VariantRecord } from '../plan';

/**
 * The variant a client reports in GET /bench/info (`variant`); clients from before that field are
 * recognized by their framework (`none`: bare, `go`: go) or the Nest settings' variant.
 */
export function reportedVariant(info: Record<string, unknown>): string | null {
  if (typeof info.variant === 'string') return info.variant;
  if (info.framework === 'none') return 'bare';
  if (info.framework === 'go') return 'go';
  const settings = info.settings as { variant?: unknown } | undefined;
  return typeof settings?.variant === 'string' ? settings.variant : null;
}

/**
 * The variant to key a --client-url run by: the client's own. `requested` is what --variants named
 * (null when not given); naming another variant is an error that names both, before any call.
 */
export function variantOfClient(info: Record<string, unknown>, clientUrl: string, requested: readonly string[] | null): VariantRecord {
  const reported = reportedVariant(info);
  if (reported === null) throw new Error(`the client at ${clientUrl} does not say which variant it is (GET /bench/info has no variant)`);
  if (requested && !requested.includes(reported)) {
    throw new Error(
      `--variants ${requested.join(',')} asks for ${requested.join(', ')}, but the client at ${clientUrl} reports variant ${reported}: ` +
        `drop --variants (the run is labelled with what the client reports) or point --client-url at a ${requested[0]} client`,
    );
  }
  const [record] = selectVariants([reported]);
  return record;
}
