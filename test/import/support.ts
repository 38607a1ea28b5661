import { expect } from 'vitest';
import type { CallResult, TestService } from '../support/service.js';

export const IMPORT = '/sdk/v2/api/files/v2/import';
export const PROGRESS = '/sdk/v2/api/files/v2/import/progress';

/** Posts a multipart import of `data` named `name`; answers the raw result. */
export function postImport(svc: TestService, fields: Record<string, string>, file?: { name: string; data: Uint8Array }, path = IMPORT): Promise<CallResult> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append('file', new Blob([new Uint8Array(file.data)]), file.name);
  return svc.call('POST', path, { rawBody: form });
}

/** Imports and waits for the task to end: the last progress answer (progress 100 with fileId, or an error). */
export async function importAndWait(svc: TestService, fields: Record<string, string>, file?: { name: string; data: Uint8Array }): Promise<CallResult> {
  const accepted = await postImport(svc, fields, file);
  expect(accepted.status, accepted.text).toBe(200);
  return waitForTask(svc, accepted.body.data.taskId as string);
}

export async function waitForTask(svc: TestService, taskId: string): Promise<CallResult> {
  let last: CallResult | undefined;
  await expect
    .poll(
      async () => {
        last = await svc.call('POST', PROGRESS, { body: { taskId } });
        return last.body.status !== 0 || last.body.data.progress === 100;
      },
      { timeout: 60_000, interval: 100 },
    )
    .toBe(true);
  return last!;
}
