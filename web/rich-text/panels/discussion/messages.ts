import { defineMessages } from '../../../shared/i18n/index.js';

export const t = defineMessages(
  {
    'discussion.title': 'Discussion',
    'discussion.placeholder': 'Message everyone working on this file…',
    'discussion.send': 'Send',
    'discussion.empty': 'No messages yet.',
    'discussion.older': 'Show older messages',
    'discussion.readOnly': 'You can read the discussion but not write in it.',
  },
  {
    'discussion.title': '讨论',
    'discussion.placeholder': '给此文件的协作者发消息…',
    'discussion.send': '发送',
    'discussion.empty': '还没有消息。',
    'discussion.older': '显示更早的消息',
    'discussion.readOnly': '你可以查看讨论，但不能发言。',
  },
);
