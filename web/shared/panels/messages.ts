import { defineMessages } from '../i18n/index.js';

/** Strings every side panel shares (its frame, the common actions and failures). */
export const t = defineMessages(
  {
    'panel.close': 'Close panel',
    'panel.panels': 'Panels',
    'panel.loading': 'Loading…',
    'panel.failed': 'Could not load: {message}',
    'action.failed': 'That did not work: {message}',
    'action.cancel': 'Cancel',
    'action.save': 'Save',
    'time.unknownUser': 'Unknown user',
  },
  {
    'panel.close': '关闭面板',
    'panel.panels': '面板',
    'panel.loading': '加载中…',
    'panel.failed': '无法加载：{message}',
    'action.failed': '操作失败：{message}',
    'action.cancel': '取消',
    'action.save': '保存',
    'time.unknownUser': '未知用户',
  },
);

/** The text of a failure to show in a panel (the service's message for refusals). */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
