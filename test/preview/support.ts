import ExcelJS from 'exceljs';
import { expect } from 'vitest';
import type { ViewerData } from '../../src/model/viewer-data.js';
import type { CallResult, TestService } from '../support/service.js';

export const create = (fileId: string) => `/sdk/v2/api/cloud-files/${fileId}/create`;
export const page = (fileId: string) => `/sdk/v2/api/cloud-files/${fileId}/page`;

/** The viewer data of a ready viewer page (its parts' links, relative to the page). */
export function viewerData(shown: CallResult): ViewerData {
  const json = shown.text.match(/<script type="application\/json" id="svc-preview">(.*?)<\/script>/)?.[1];
  expect(json, shown.text).toBeDefined();
  return JSON.parse(json!) as ViewerData;
}

/** A part through its link, as the viewer's browser asks for it: no signature, no token. */
export function part(svc: TestService, fileId: string, link: string): Promise<Response> {
  return fetch(`${svc.url}/sdk/v2/api/cloud-files/${fileId}/${link}`);
}

/** Opens the page until the preview is no longer being built; answers the last page. */
export async function settledPage(svc: TestService, fileId: string, lang = 'en'): Promise<CallResult> {
  let last: CallResult | undefined;
  await expect
    .poll(
      async () => {
        last = await svc.call('GET', page(fileId), { query: { lang } });
        return last.text.includes('Preparing the preview');
      },
      { timeout: 60_000, interval: 200 },
    )
    .toBe(false);
  return last!;
}

/** The HTML of every rendered page of a ready preview, in order. */
export async function renderedPages(svc: TestService, fileId: string): Promise<string[]> {
  const data = viewerData(await settledPage(svc, fileId));
  expect(data.shows, JSON.stringify(data)).toBe('pages');
  const links = (data as Extract<ViewerData, { shows: 'pages' }>).pages;
  return Promise.all(links.map(async (link) => (await part(svc, fileId, link)).text()));
}

/** A workbook of two sheets ("Revenue" with a header row and "Costs"), as an integrator's stored xlsx. */
export async function xlsxFixture(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet('Revenue').addRows([
    ['Region', 'Amount'],
    ['North', 1200],
  ]);
  workbook.addWorksheet('Costs').addRow(['Rent', 800]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
