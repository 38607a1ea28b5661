// pdf.js's parser in its own thread, so a large or complex pdf never blocks scrolling and the toolbar. The
// library (a build that carries its worker side too) registers that side as globalThis.pdfjsWorker.
import 'unpdf/pdfjs';

interface WorkerSide {
  WorkerMessageHandler: { initializeFromPort(port: typeof globalThis): void };
}

(globalThis as unknown as { pdfjsWorker: WorkerSide }).pdfjsWorker.WorkerMessageHandler.initializeFromPort(globalThis);
