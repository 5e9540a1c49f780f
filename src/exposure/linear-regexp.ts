// Schema patterns come from a catalogue and the strings they test from a model: a backtracking engine takes
// hours on `^(a+)+$` against forty a's and a "!". @cfworker/json-schema builds its patterns with the global
// `new RegExp(pattern, 'u')`, so while a schema is checked that name stands for RE2 (re2js: linear time, pure
// JavaScript, no WebAssembly). Checking is synchronous, so nothing else runs while the name is swapped.
import { RE2JS } from 're2js';

/** Thrown when a pattern needs a backtracking engine (lookaround, backreferences): it is refused, never run. */
export class RefusedPattern extends Error {
  constructor(readonly pattern: string) {
    super(`the pattern ${JSON.stringify(pattern)} cannot be matched in linear time`);
  }
}

/** Compiled patterns kept, by flags and source: a catalogue's worth. */
const PATTERNS_KEPT = 512;
const compiled = new Map<string, RE2JS | RefusedPattern>();

function flagsOf(flags: string): number {
  let bits = 0;
  if (flags.includes('i')) bits |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) bits |= RE2JS.MULTILINE;
  if (flags.includes('s')) bits |= RE2JS.DOTALL;
  return bits;
}

function compile(source: string, flags: string, native: RegExpConstructor): RE2JS | RefusedPattern {
  const key = `${flags}/${source}`;
  let pattern = compiled.get(key);
  if (pattern) return pattern;
  try {
    pattern = RE2JS.compile(RE2JS.translateRegExp(source), flagsOf(flags));
  } catch {
    // Not RE2 syntax: a real syntax error throws as the native engine would say it; valid ECMAScript is refused.
    new native(source, flags);
    pattern = new RefusedPattern(source);
  }
  if (compiled.size >= PATTERNS_KEPT) compiled.delete(compiled.keys().next().value as string);
  compiled.set(key, pattern);
  return pattern;
}

/** Runs `check` with `new RegExp(...)` matching in linear time; `test` of a refused pattern throws RefusedPattern. */
export function withLinearRegExp<T>(check: () => T): T {
  const native = globalThis.RegExp;
  class LinearRegExp {
    readonly #pattern: RE2JS | RefusedPattern;
    constructor(source: string, flags = '') {
      this.#pattern = compile(String(source), flags, native);
    }
    test(input: string): boolean {
      if (this.#pattern instanceof RefusedPattern) throw this.#pattern;
      return this.#pattern.test(String(input));
    }
  }
  globalThis.RegExp = LinearRegExp as unknown as RegExpConstructor;
  try {
    return check();
  } finally {
    globalThis.RegExp = native;
  }
}
