import { defineMessages } from '../../../shared/i18n/index.js';

export const t = defineMessages(
  {
    'toc.title': 'Contents',
    'toc.empty': 'Headings of the document appear here.',
    'toc.untitled': '(empty heading)',
  },
  {
    'toc.title': '目录',
    'toc.empty': '文档的标题会显示在这里。',
    'toc.untitled': '（空标题）',
  },
);
