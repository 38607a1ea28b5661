// pdf.js's parser in its own thread, so a large or complex pdf never blocks scrolling and the toolbar. Evaluating
// the library (a build that carries its worker side too) in a worker starts that side on the thread's port. The
// package declares itself free of side effects, so a bare import would be dropped by the bundler: a name of it is
// used, in a statement the bundler must keep, to keep the module.
import { version } from 'unpdf/pdfjs';

(globalThis as { pdfjsVersion?: string }).pdfjsVersion = version;
