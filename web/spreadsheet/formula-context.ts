import { FUNCTIONS } from '../../src/model/sheets/formulas/index.js';

/** Where the caret is in a formula being typed: a function name being typed, and the call it is inside. */
export interface FormulaContext {
  /** the name typed right before the caret (`SU` in `=SU`), with where it starts; undefined when the caret ends no name */
  fragment?: { text: string; start: number };
  /** the innermost function call the caret is inside, and which of its arguments (0-based) the caret is in */
  call?: { name: string; argument: number };
}

/**
 * Reads a formula up to the caret: the calls opened and not closed yet (strings and quoted sheet names skipped), and
 * the name being typed. Text that is not a formula has no context.
 */
export function formulaContext(text: string, caret: number): FormulaContext {
  if (!text.startsWith('=')) return {};
  const calls: Array<{ name: string | undefined; argument: number }> = [];
  let index = 1;
  let nameStart = -1;
  while (index < caret) {
    const char = text[index]!;
    if (char === '"' || char === "'") {
      const close = text.indexOf(char, index + 1);
      if (close === -1 || close >= caret) return {};
      index = close + 1;
      nameStart = -1;
      continue;
    }
    if (/[A-Za-z0-9_.$]/.test(char)) {
      if (nameStart === -1) nameStart = index;
    } else {
      if (char === '(') calls.push({ name: nameStart === -1 ? undefined : text.slice(nameStart, index).toUpperCase(), argument: 0 });
      else if (char === ')') calls.pop();
      else if (char === ',' && calls.length > 0) calls[calls.length - 1]!.argument++;
      nameStart = -1;
    }
    index++;
  }
  const context: FormulaContext = {};
  if (nameStart !== -1 && /^[A-Za-z_]/.test(text[nameStart]!)) context.fragment = { text: text.slice(nameStart, caret).toUpperCase(), start: nameStart };
  for (let open = calls.length - 1; open >= 0; open--) {
    const call = calls[open]!;
    if (call.name === undefined) continue;
    context.call = { name: call.name.replace(/^_XL(FN|WS)\./, ''), argument: call.argument };
    break;
  }
  return context;
}

/** The engine's functions starting with `prefix`, in alphabetical order. */
export function functionsStartingWith(prefix: string): string[] {
  return [...FUNCTIONS.keys()].filter((name) => name.startsWith(prefix)).sort();
}

