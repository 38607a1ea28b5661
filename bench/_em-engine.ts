import fs from 'node:fs';
import * as Y from 'yjs';
import { ALL_PERMISSIONS, startIntegrator } from '/work/wt/editor-million/examples/integrator/integrator.js';
import { startBenchService } from '/work/wt/editor-million/bench/_service.js';
import { importWorkbook, IMPORT_SERVICE_ENV } from '/work/wt/editor-million/bench/import-export.js';
import { connectEditor } from '/work/wt/editor-million/bench/sheets.js';
import { SpreadsheetCalculation } from '/work/wt/editor-million/src/model/sheets/formulas/index.js';
import { sheetModels, sheetIds } from '/work/wt/editor-million/src/model/sheets/sheet-model.js';
let update: Uint8Array;
if (fs.existsSync('/tmp/em/million.bin')) update = fs.readFileSync('/tmp/em/million.bin');
else {
  const APP_ID = 'bench-spreadsheet', SECRET = 'bench-spreadsheet-secret-bench-spreadsheet', TOKEN = 'bench-token';
  const integrator = await startIntegrator({ secretOf: (id) => (id === APP_ID ? SECRET : undefined) });
  integrator.addUser({ id: 'bench-user', name: 'Bench', token: TOKEN });
  integrator.addFile({ id: 'f1', type: 'spreadsheet', grants: { 'bench-user': { ...ALL_PERMISSIONS } } });
  const service = await startBenchService({ appId: APP_ID, secret: SECRET, endpointUrl: integrator.url, env: IMPORT_SERVICE_ENV });
  await importWorkbook(service, TOKEN, 'f1', fs.readFileSync('/tmp/em/million.xlsx'));
  const client = await connectEditor(service, 'f1');
  update = Y.encodeStateAsUpdate(client.doc);
  fs.writeFileSync('/tmp/em/million.bin', update);
  client.close(); await service.close(); await integrator.close();
}
for (let i = 0; i < 3; i++) {
  let t = performance.now();
  const doc = new Y.Doc();
  Y.applyUpdate(doc, update);
  const decode = performance.now() - t; t = performance.now();
  const calc = new SpreadsheetCalculation(doc);
  const [id] = sheetIds(doc);
  const sheet = sheetModels(doc)[0]!;
  calc.workbook.value(id!, 0, 3);
  const first = performance.now() - t; t = performance.now();
  for (let r = 0; r < 40; r++) for (let c = 0; c < 13; c++) { sheet.cell(r, c); calc.workbook.value(id!, r, c); }
  const screen = performance.now() - t; t = performance.now();
  for (let step = 1; step <= 100; step++) { const top = step * 999; for (let r = top; r < top + 45; r++) for (let c = 0; c < 13; c++) { sheet.cell(r, c); calc.workbook.value(id!, r, c); } }
  const scroll = performance.now() - t;
  console.log(`decode ${decode.toFixed(0)} ms, engine first value ${first.toFixed(0)} ms, screen ${screen.toFixed(0)} ms, 100 scroll screens ${scroll.toFixed(0)} ms`);
}
process.exit(0);
