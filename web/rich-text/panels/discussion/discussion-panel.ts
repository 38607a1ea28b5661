import type { EditorMethod } from '../../../shared/bridge.js';
import { element } from '../../../shared/shell.js';
import type { InlineNode } from '../../../shared/panels/composer/inline-content.js';
import { renderInlineNodes } from '../../../shared/panels/composer/render-content.js';
import { MentionComposer } from '../../../shared/panels/composer/mention-composer.js';
import { formatTime } from '../../../shared/panels/format.js';
import { PanelNotice } from '../../../shared/panels/notice.js';
import type { Panel } from '../../../shared/panels/panel-host.js';
import type { PanelsContext } from '../panels-context.js';
import { t } from './messages.js';

interface DiscussionMessage {
  id: string;
  userId: string;
  nodes: InlineNode[];
  unixus: number;
  createdAt: string;
}

interface MessagePage {
  messages: DiscussionMessage[];
  isLastPage: boolean;
  users: Record<string, { id: string; name: string }>;
}

const PAGE_SIZE = 50;

/**
 * The light document's discussion: the file-level chat (POST/GET discussions), oldest message at the top,
 * @mentions as in comments, new messages of anyone shown as the service announces them (`svc:conversation`).
 */
export class DiscussionPanel implements Panel {
  readonly id = 'discussion';
  readonly label = t('discussion.title');
  readonly element = element('div', '');
  private readonly list = element('ol', 'svc-discussion-list');
  private readonly olderButton = element('button', 'svc-button svc-discussion-older', t('discussion.older'));
  private readonly notice = new PanelNotice();
  private readonly readOnly = element('p', 'svc-panel-empty', t('discussion.readOnly'));
  private readonly composer: MentionComposer;
  private readonly messages = new Map<string, DiscussionMessage>();
  private readonly names = new Map<string, string>();
  private hasOlder = false;

  constructor(private readonly context: PanelsContext) {
    this.composer = new MentionComposer(context.api, {
      placeholder: t('discussion.placeholder'),
      submitLabel: t('discussion.send'),
      submit: (content) => this.notice.run(() => context.api.call(context.api.filePath('discussions'), { method: 'POST', body: { content } }).then(() => this.loadLatest())),
    });
    this.olderButton.type = 'button';
    this.olderButton.addEventListener('click', () => void this.notice.run(() => this.loadOlder()).catch(() => undefined));
    this.element.append(this.olderButton, this.list, this.notice.element, this.readOnly, this.composer.element);
    context.session.onMessage((message) => {
      // svc:user-updated: a writer's name changed (the service dropped its cached answer)
      if ((message.type === 'svc:conversation' && message.subject === 'discussion') || message.type === 'svc:user-updated') void this.loadLatest().catch(() => undefined);
    });
    context.permissions.follow(({ commentable }) => {
      this.composer.element.hidden = !commentable;
      this.readOnly.hidden = commentable;
    });
    this.render();
  }

  shown(): void {
    void this.notice.run(() => this.loadLatest()).catch(() => undefined);
  }

  methods(): Record<string, EditorMethod> {
    return {
      showDiscussion: () => this.context.panels.show(this.id),
      hideDiscussion: () => this.context.panels.hide(this.id),
    };
  }

  private async loadLatest(): Promise<void> {
    const page = await this.read(undefined);
    if (this.messages.size === page.messages.length) this.hasOlder = !page.isLastPage;
    this.render(true);
  }

  private async loadOlder(): Promise<void> {
    const oldest = Math.min(...[...this.messages.values()].map((message) => message.unixus));
    const page = await this.read(Number.isFinite(oldest) ? oldest : undefined);
    this.hasOlder = !page.isLastPage;
    this.render(false);
  }

  private async read(before: number | undefined): Promise<MessagePage> {
    const page = await this.context.api.call<MessagePage>(this.context.api.filePath('discussions'), { query: { pageSize: PAGE_SIZE, before } });
    for (const message of page.messages) this.messages.set(message.id, message);
    for (const user of Object.values(page.users)) this.names.set(user.id, user.name);
    return page;
  }


  private render(scrollToEnd = false): void {
    this.olderButton.hidden = !this.hasOlder;
    const messages = [...this.messages.values()].sort((a, b) => a.unixus - b.unixus);
    if (messages.length === 0) {
      this.list.replaceChildren(element('li', 'svc-panel-empty', t('discussion.empty')));
      return;
    }
    this.list.replaceChildren(
      ...messages.map((message) => {
        const item = element('li', 'svc-discussion-message');
        item.dataset.message = message.id;
        const meta = element('div', 'svc-comment-meta');
        meta.append(element('span', 'svc-comment-author', this.names.get(message.userId) ?? message.userId), element('time', 'svc-comment-time', formatTime(message.createdAt)));
        const body = element('div', 'svc-comment-body');
        body.append(renderInlineNodes(message.nodes, (userId) => this.names.get(userId)));
        item.append(meta, body);
        return item;
      }),
    );
    if (scrollToEnd) this.list.lastElementChild?.scrollIntoView({ block: 'nearest' });
  }
}
