import { getDocument } from 'unpdf/pdfjs';
import { serveJobs } from '../conversion/worker-pool.js';
import type { PdfCheckAnswer, PdfCheckJob } from './pdf-check.js';

/**
 * Opens the pdf as the viewer will: its cross-reference table, its page tree and its first page. pdf.js refuses a
 * file that is no pdf (InvalidPDFException) or needs a password (PasswordException); anything else it throws
 * while parsing is a damaged file too.
 */
async function check(job: PdfCheckJob, progress: (fraction: number) => void): Promise<PdfCheckAnswer> {
  // pdf.js takes the buffer over: give it a copy so the job's bytes stay as they were (they are the task's blob)
  const loading = getDocument({ data: job.bytes.slice(), useSystemFonts: false, stopAtErrors: false, verbosity: 0 });
  try {
    const document = await loading.promise;
    progress(0.5);
    const pageCount = document.numPages;
    if (pageCount > job.maxPages) {
      return { refused: 'tooManyPages', message: `the pdf has ${pageCount} pages; the viewer shows at most ${job.maxPages}` };
    }
    if (pageCount < 1) return { refused: 'corrupt', message: 'the pdf has no pages' };
    await document.getPage(1);
    return { pageCount };
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    const detail = error instanceof Error ? error.message : String(error);
    if (name === 'PasswordException') return { refused: 'password', message: 'the pdf is protected by a password: save it without one to preview it' };
    return { refused: 'corrupt', message: `the file is not a readable pdf (${detail.slice(0, 200)})` };
  } finally {
    await loading.destroy();
  }
}

serveJobs<PdfCheckJob, PdfCheckAnswer>(check);
