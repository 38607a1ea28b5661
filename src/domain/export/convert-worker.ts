import { serveJobs } from '../conversion/worker-pool.js';
import { runConversion, type ConversionRequest, type ConversionResult } from './convert.js';

/** Worker-thread entry of export conversions (convert.ts); ExportService runs them through a WorkerPool of it. */
serveJobs<ConversionRequest, ConversionResult>(runConversion);
