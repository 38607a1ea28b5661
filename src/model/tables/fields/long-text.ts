import { textType } from './text.js';

export const MAX_LONG_TEXT = 100_000;

export const longText = textType('LongText', MAX_LONG_TEXT, `a string of at most ${MAX_LONG_TEXT} characters`);
