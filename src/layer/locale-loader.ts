// The texts of a layer's locale. English is in the core entry; Chinese is imported on first use (a chunk of its own),
// and once loaded, later layers get it at once.
import type { Texts } from '../core/texts.ts';
import { locales } from '../core/texts.ts';

let zh: Texts | undefined;
let loading: Promise<Texts> | undefined;

/** A layer's texts, and, while they still load, the promise every call awaits first. */
export interface LocaleTexts {
  readonly texts: Texts;
  readonly ready?: Promise<void>;
}

/**
 * The locale's texts with the host's overrides. For a locale not loaded yet, `texts` holds English until `ready`
 * settles, then the locale's texts (the same object, filled in and frozen); if the chunk fails to load it stays English.
 */
export function localeTexts(
  locale: 'en' | 'zh',
  overrides: Partial<Texts>,
  warn: (message: string) => void,
): LocaleTexts {
  const base = locale === 'en' ? locales.en : zh;
  if (base) return { texts: Object.freeze({ ...base, ...overrides }) };
  const texts: Texts = { ...locales.en, ...overrides };
  loading ??= import('../core/locale-zh.ts').then((module) => {
    zh = module.zh;
    return zh;
  });
  const ready = loading.then(
    (loaded) => {
      Object.assign(texts, loaded, overrides);
      Object.freeze(texts);
    },
    (error: unknown) => {
      loading = undefined;
      Object.freeze(texts);
      warn(
        `the "${locale}" texts failed to load (${error instanceof Error ? error.message : String(error)}); this layer speaks English`,
      );
    },
  );
  return { texts, ready };
}
