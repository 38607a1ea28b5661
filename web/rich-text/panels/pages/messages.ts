import { defineMessages } from '../../../shared/i18n/index.js';

export const t = defineMessages(
  {
    'pages.position': 'Page {page} of {count}',
    'pages.zoomIn': 'Zoom in',
    'pages.zoomOut': 'Zoom out',
    'pages.zoomReset': 'Zoom {percent}% (click for 100%)',
    'pages.pageNumber': 'Page {page}',
  },
  {
    'pages.position': '第 {page} 页，共 {count} 页',
    'pages.zoomIn': '放大',
    'pages.zoomOut': '缩小',
    'pages.zoomReset': '缩放 {percent}%（点击恢复 100%）',
    'pages.pageNumber': '第 {page} 页',
  },
);
