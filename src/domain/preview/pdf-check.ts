/**
 * What the pdf check thread (pdf-check-worker.ts) is given and answers: a pdf is opened by pdf.js (the same
 * library the viewer renders it with) once, when the preview is built, so a file the viewer could not open is
 * refused with a code instead of showing an empty viewer.
 */
export interface PdfCheckJob {
  bytes: Uint8Array;
  /** more pages than this: refused (123004) */
  maxPages: number;
}

export type PdfCheckAnswer =
  | { pageCount: number }
  | { refused: 'corrupt' | 'password' | 'tooManyPages'; message: string };

/** The check thread's entry, by its compiled name (the worker pool loads the .ts under tsx). */
export const PDF_CHECK_WORKER = new URL('./pdf-check-worker.js', import.meta.url);
