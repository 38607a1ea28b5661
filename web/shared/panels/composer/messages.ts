import { defineMessages } from '../../i18n/index.js';

export const t = defineMessages(
  {
    'composer.suggestions': 'People and files to mention',
    'composer.people': 'People',
    'composer.files': 'Files',
    'composer.noOne': 'No one and no file matches',
    'composer.partly': 'Some suggestions are missing: {message}',
    'composer.failed': 'Suggestions could not be loaded: {message}',
    'composer.hint': 'Enter to send, Shift+Enter for a new line, @ to mention someone or a file',
    'composer.shortHint': 'Enter sends · Shift+Enter new line · @ mentions',
  },
  {
    'composer.suggestions': '可提及的人和文件',
    'composer.people': '人员',
    'composer.files': '文件',
    'composer.noOne': '没有匹配的人或文件',
    'composer.partly': '部分建议未能加载：{message}',
    'composer.failed': '建议未能加载：{message}',
    'composer.hint': '回车发送，Shift+回车换行，输入 @ 提及他人或文件',
    'composer.shortHint': '回车发送 · Shift+回车换行 · @ 提及',
  },
);
