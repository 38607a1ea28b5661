// pdf.js's parser in its own thread, so a large or complex pdf never blocks scrolling and the toolbar. The
// library (a build that carries its worker side too) registers that side as globalThis.pdfjsWorker when it is
// evaluated. The package declares itself free of side effects, so a bare import would be dropped by the bundler:
// the version is imported by name to keep the module.
import { version } from 'unpdf/pdfjs';

interface WorkerSide {
  WorkerMessageHandler: { initializeFromPort(port: typeof globalThis): void };
}

const side = (globalThis as unknown as { pdfjsWorker?: WorkerSide }).pdfjsWorker;
if (!side) throw new Error(`pdf.js ${version} did not register its worker side`);
side.WorkerMessageHandler.initializeFromPort(globalThis);
