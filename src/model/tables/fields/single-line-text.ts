import { textType } from './text.js';

export const MAX_SINGLE_LINE_TEXT = 10_000;

export const singleLineText = textType(
  'SingleLineText',
  MAX_SINGLE_LINE_TEXT,
  `a string of at most ${MAX_SINGLE_LINE_TEXT} characters`,
);
