import type { FirstScreen } from '../../src/model/sheets/first-screen.js';
import type { ServiceApi } from '../shared/api.js';
import type { EditorBoot } from '../shared/boot.js';

/** The grid's row height and what it draws past its edges (grid.ts), to ask the service for a screenful. */
const ROW_HEIGHT = 24;
const OVERSCAN_ROWS = 6;
const OVERSCAN_PIXELS = 200;

/**
 * Asks the service for the spreadsheet's first screen (docs/BROWSER.md "First screen"). web/main.ts sends it
 * before it opens the collaboration session, so that it reaches the service ahead of the session (whose live
 * document the service then loads) and its answer reaches the page before the document does (whose decoding
 * holds the page's thread). Kept apart from first-screen.ts so that the main chunk carries only this request.
 * Answers undefined when the service refuses: the first screen is only a head start. `sheetName` (default: the
 * first sheet) is the tab the user picks on the first screen before the sync (first-screen.ts).
 */
export async function requestFirstScreen(api: ServiceApi, boot: EditorBoot, area: HTMLElement, sheetName?: string): Promise<FirstScreen | undefined> {
  const rows = Math.ceil((area.clientHeight || window.innerHeight) / ROW_HEIGHT) + OVERSCAN_ROWS;
  const width = (area.clientWidth || window.innerWidth) + OVERSCAN_PIXELS;
  try {
    return await api.call<FirstScreen>(`${boot.apiBase}/api/files/${encodeURIComponent(boot.fileId)}/sheets/first-screen`, { query: { rows, width, sheetName } });
  } catch (error) {
    console.warn('spreadsheet first screen not shown', error);
    return undefined;
  }
}
