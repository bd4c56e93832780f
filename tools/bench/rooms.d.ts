// Types of rooms.js (plain JavaScript so that ESLint loads it without a TypeScript loader).
import type { Rule } from 'eslint';

export declare const ROOMS: Readonly<Record<string, readonly string[]>>;
export declare const NOT_ROOMS: readonly string[];
export declare function roomViolation(srcRoot: string, file: string, specifier: string, rooms?: Readonly<Record<string, readonly string[]>>): string | null;
export declare const plugin: { rules: { rooms: Rule.RuleModule } };
