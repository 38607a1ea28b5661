import { defineMessages } from '../../i18n/index.js';

export const t = defineMessages(
  {
    'composer.suggestions': 'People to mention',
    'composer.noOne': 'No one matches',
    'composer.hint': 'Enter to send, Shift+Enter for a new line, @ to mention someone',
  },
  {
    'composer.suggestions': '可提及的人',
    'composer.noOne': '没有匹配的人',
    'composer.hint': '回车发送，Shift+回车换行，输入 @ 提及他人',
  },
);
