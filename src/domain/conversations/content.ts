import { Type, type Static } from '@sinclair/typebox';
import { ApiError, Errors } from '../../errors.js';

/**
 * The content of a comment or a discussion message (docs/CONVERSATIONS.md "Content"): a plain string, or
 * inline nodes of the document model (text, mention, hardBreak). Mentions are recognised only from
 * `mention` nodes, never by parsing `@` in text.
 */

export const MAX_CONTENT_CHARACTERS = 10_000;
export const MAX_CONTENT_NODES = 100;
export const MAX_CONTENT_MENTIONS = 50;
const MAX_ID_LENGTH = 64;

const InlineNodeInput = Type.Object(
  {
    type: Type.String({ description: '`text`, `mention`, `fileMention` or `hardBreak`' }),
    text: Type.Optional(Type.String({ description: 'text: the characters' })),
    attrs: Type.Optional(
      Type.Object(
        {
          id: Type.Optional(Type.String({ description: 'mention: the integrator user id' })),
          guid: Type.Optional(Type.String({ description: 'mention: its own id (assigned when absent)' })),
          label: Type.Optional(Type.String({ description: 'mention: ignored (the integrator\'s name for the user is shown); fileMention: the file\'s name' })),
          fileId: Type.Optional(Type.String({ description: 'fileMention: the file\'s id in the integrator' })),
          fileType: Type.Optional(Type.String({ description: 'fileMention: its file list entry\'s `type` (`document`, …, or `file`)' })),
          fullUrl: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'fileMention: the address of a file of type `file`' })),
        },
        { additionalProperties: true },
      ),
    ),
  },
  { additionalProperties: true },
);

/** The `content` field of conversation requests (one schema: validation and OpenAPI). */
export const ContentInput = Type.Union(
  [
    Type.String({ maxLength: MAX_CONTENT_CHARACTERS, description: 'plain text (no mentions)' }),
    Type.Array(InlineNodeInput, { maxItems: MAX_CONTENT_NODES, description: 'inline nodes: text, mention (attrs.id = user id), fileMention (attrs.fileId, fileType, label, fullUrl), hardBreak' }),
  ],
  { description: `1-${MAX_CONTENT_CHARACTERS} characters of text, or inline nodes with at most ${MAX_CONTENT_MENTIONS} mentions (docs/CONVERSATIONS.md)` },
);
export type ContentInputValue = Static<typeof ContentInput>;

/** A file named in content, as the mention suggestions listed it (a link, not a notice: no event). */
export interface FileMentionNode {
  type: 'fileMention';
  attrs: { fileId: string; fileType: string; label: string; fullUrl: string | null };
}

/** A stored inline node: mentions carry the user id, their guid and the name shown when written. */
export type ContentNode = { type: 'text'; text: string } | { type: 'hardBreak' } | { type: 'mention'; attrs: { id: string; guid: string; label: string } } | FileMentionNode;

/** Content checked for shape, before the mentioned users are looked up. */
export interface ParsedContent {
  nodes: Array<{ type: 'text'; text: string } | { type: 'hardBreak' } | { type: 'mention'; attrs: { id: string; guid: string } } | FileMentionNode>;
  /** mentioned user ids, once each, in order of first appearance */
  mentioned: string[];
}

function invalid(message: string): ApiError {
  return new ApiError(Errors.invalidConversationParams, message);
}

/** Checks content and assigns mention guids; throws 74000 naming the first problem. */
export function parseContent(input: ContentInputValue, newGuid: () => string = () => crypto.randomUUID()): ParsedContent {
  // the route schema checks the shape already; the parser still takes nothing for granted
  const raw: unknown[] = typeof input === 'string' ? [{ type: 'text', text: input }] : Array.isArray(input) ? input : [input];
  const nodes: ParsedContent['nodes'] = [];
  const mentioned: string[] = [];
  const guids = new Set<string>();
  let mentions = 0;
  raw.forEach((item, index) => {
    const where = typeof input === 'string' ? 'content' : `content[${index}]`;
    if (typeof item !== 'object' || item === null) throw invalid(`${where}: a node is an object with a \`type\``);
    const node = item as { type?: unknown; text?: unknown; attrs?: { id?: unknown; guid?: unknown; fileId?: unknown; fileType?: unknown; label?: unknown; fullUrl?: unknown } | null };
    if (node.type === 'text') {
      if (typeof node.text !== 'string') throw invalid(`${where}: a text node needs \`text\` (a string)`);
      if (node.text.length > 0) nodes.push({ type: 'text', text: node.text });
    } else if (node.type === 'hardBreak') {
      nodes.push({ type: 'hardBreak' });
    } else if (node.type === 'mention') {
      const id = node.attrs?.id;
      if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_LENGTH) throw invalid(`${where}: a mention needs attrs.id, the user id (1-${MAX_ID_LENGTH} characters)`);
      mentions += 1;
      if (mentions > MAX_CONTENT_MENTIONS) throw invalid(`content: at most ${MAX_CONTENT_MENTIONS} mentions`);
      const given = node.attrs?.guid;
      if (given !== undefined && (typeof given !== 'string' || given.length === 0 || given.length > MAX_ID_LENGTH)) {
        throw invalid(`${where}: attrs.guid must be 1-${MAX_ID_LENGTH} characters`);
      }
      const guid = given === undefined || guids.has(given) ? newGuid() : given;
      guids.add(guid);
      nodes.push({ type: 'mention', attrs: { id, guid } });
      if (!mentioned.includes(id)) mentioned.push(id);
    } else if (node.type === 'fileMention') {
      nodes.push(fileMentionOf(where, node.attrs ?? {}));
    } else {
      throw invalid(`${where}: unknown node type ${JSON.stringify(node.type)}; allowed: text, mention, fileMention, hardBreak`);
    }
  });
  const hasText = nodes.some((node) => (node.type === 'text' && node.text.trim().length > 0) || node.type === 'fileMention');
  if (!hasText && mentions === 0) throw invalid('content is empty: write some text or mention someone');
  return { nodes, mentioned };
}

const MAX_FILE_LABEL_LENGTH = 500;
const MAX_URL_LENGTH = 2048;

/** A file mention's attributes checked: an id and type, a name to show, and an http(s) address only on type `file`. */
function fileMentionOf(where: string, attrs: { fileId?: unknown; fileType?: unknown; label?: unknown; fullUrl?: unknown }): FileMentionNode {
  const { fileId, fileType, label, fullUrl } = attrs;
  if (typeof fileId !== 'string' || fileId.length === 0 || fileId.length > MAX_ID_LENGTH) throw invalid(`${where}: a fileMention needs attrs.fileId, the file id (1-${MAX_ID_LENGTH} characters)`);
  if (typeof fileType !== 'string' || fileType.length === 0 || fileType.length > MAX_ID_LENGTH) throw invalid(`${where}: a fileMention needs attrs.fileType (1-${MAX_ID_LENGTH} characters)`);
  if (typeof label !== 'string' || label.trim().length === 0 || label.length > MAX_FILE_LABEL_LENGTH) throw invalid(`${where}: a fileMention needs attrs.label, the file's name (1-${MAX_FILE_LABEL_LENGTH} characters)`);
  if (fullUrl !== undefined && fullUrl !== null && (typeof fullUrl !== 'string' || fullUrl.length > MAX_URL_LENGTH || !/^https?:\/\//i.test(fullUrl))) {
    throw invalid(`${where}: attrs.fullUrl of a fileMention is an http(s) address of at most ${MAX_URL_LENGTH} characters`);
  }
  return { type: 'fileMention', attrs: { fileId, fileType, label, fullUrl: typeof fullUrl === 'string' ? fullUrl : null } };
}

/** Names the mentions with the integrator's names and checks the text form's length. */
export function labelContent(parsed: ParsedContent, nameOf: (userId: string) => string): { nodes: ContentNode[]; text: string } {
  const nodes: ContentNode[] = parsed.nodes.map((node) => (node.type === 'mention' ? { type: 'mention', attrs: { ...node.attrs, label: nameOf(node.attrs.id) } } : node));
  const text = contentText(nodes);
  if (text.length > MAX_CONTENT_CHARACTERS) throw invalid(`content is ${text.length} characters long with its mentions written out; at most ${MAX_CONTENT_CHARACTERS}`);
  return { nodes, text };
}

/** The text form: mentions as `@Name`, hard breaks as line breaks (the `content` of events). */
export function contentText(nodes: readonly ContentNode[]): string {
  let text = '';
  for (const node of nodes) {
    if (node.type === 'text') text += node.text;
    else if (node.type === 'hardBreak') text += '\n';
    else if (node.type === 'fileMention') text += node.attrs.label;
    else text += `@${node.attrs.label}`;
  }
  return text;
}

/** Mentions of stored content, for mention-at-list. */
export function mentionsOf(nodes: readonly ContentNode[]): Array<{ userId: string; atGuid: string }> {
  return nodes.flatMap((node) => (node.type === 'mention' ? [{ userId: node.attrs.id, atGuid: node.attrs.guid }] : []));
}
