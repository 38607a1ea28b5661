import { defineMessages } from '../../../shared/i18n/index.js';

export const t = defineMessages(
  {
    'bookmarks.title': 'Bookmarks',
    'bookmarks.namePlaceholder': 'Bookmark name',
    'bookmarks.insert': 'Insert',
    'bookmarks.insertHint': 'Wraps the paragraphs of the selection (or the one with the cursor) in a named bookmark.',
    'bookmarks.rename': 'Rename',
    'bookmarks.remove': 'Remove',
    'bookmarks.empty': 'No bookmarks yet.',
    'bookmarks.nameTaken': 'A bookmark named “{name}” already exists.',
    'bookmarks.nameEmpty': 'Give the bookmark a name.',
    'bookmarks.cannotWrap': 'A bookmark cannot be inserted here.',
    'bookmarks.readOnly': 'Only editors can insert, rename or remove bookmarks.',
  },
  {
    'bookmarks.title': '书签',
    'bookmarks.namePlaceholder': '书签名称',
    'bookmarks.insert': '插入',
    'bookmarks.insertHint': '将选中的段落（或光标所在段落）放入一个命名书签。',
    'bookmarks.rename': '重命名',
    'bookmarks.remove': '删除',
    'bookmarks.empty': '还没有书签。',
    'bookmarks.nameTaken': '已存在名为“{name}”的书签。',
    'bookmarks.nameEmpty': '请为书签命名。',
    'bookmarks.cannotWrap': '此处无法插入书签。',
    'bookmarks.readOnly': '只有编辑者可以插入、重命名或删除书签。',
  },
);
