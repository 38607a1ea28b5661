import type { EditorLanguage } from '../boot.js';
import { en, type MessageKey } from './en.js';
import { zhCN } from './zh-CN.js';

export type { MessageKey } from './en.js';

let language: EditorLanguage = 'zh-CN';

/** Chooses the language of every later translation (the boot data's `lang`). */
export function setLanguage(lang: EditorLanguage): void {
  language = lang;
  document.documentElement.lang = lang;
}

/** The language translations are in now (for text keyed by something other than a message key: function hints). */
export function currentLanguage(): EditorLanguage {
  return language;
}

export type Translate<Key extends string> = (key: Key, values?: Record<string, string | number>) => string;

/**
 * One area's strings (an editor kind, a panel): English names the keys and the type makes zh-CN carry every one.
 * Each area keeps its strings beside its code, so adding a panel never touches a shared dictionary.
 */
export function defineMessages<Key extends string>(english: Record<Key, string>, chinese: Record<NoInfer<Key>, string>): Translate<Key> {
  const dictionaries: Record<EditorLanguage, Record<Key, string>> = { en: english, 'zh-CN': chinese };
  return (key, values = {}) =>
    dictionaries[language][key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** The strings of the shell every editor shares (save status, errors, the common toolbar). */
export const t: Translate<MessageKey> = defineMessages(en, zhCN);
