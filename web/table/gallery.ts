import { addCardButton, rowCard, type CardContext } from './cards.js';
import { t } from './messages.js';
import type { Row, ViewSettingsOf } from './model.js';

export interface GalleryOptions extends CardContext {
  settings: ViewSettingsOf['gallery'];
  rows: readonly Row[];
  /** whether the user may add rows (an "Add card" then ends the gallery) */
  editable: boolean;
  open(row: Row): void;
  /** adds an empty row */
  add(): void;
}

/** Addresses a cover may load: web and data images (never `javascript:` or other schemes). */
const IMAGE_ADDRESS = /^(https?:\/\/|data:image\/)/i;

/** The first image address of a cover cell: a text cell's address, or the first attachment's `url`. */
export function coverAddress(value: unknown): string | undefined {
  const candidates = Array.isArray(value) ? value.map((item) => (typeof item === 'object' && item !== null ? (item as Record<string, unknown>).url : item)) : [value];
  return candidates.find((candidate): candidate is string => typeof candidate === 'string' && IMAGE_ADDRESS.test(candidate.trim()))?.trim();
}

/**
 * Cards in a responsive grid: the cover image on top (a plain band when the row has none), then the fields; for
 * people who may add rows, "Add card" last.
 */
export function drawGallery(container: HTMLElement, options: GalleryOptions): void {
  const cover = options.columns.find((column) => column.guid === options.settings.cover);
  const gallery = document.createElement('div');
  gallery.className = 'svc-table-gallery';
  gallery.setAttribute('aria-label', t('gallery.label'));
  for (const row of options.rows) {
    const card = rowCard(row, options.settings.cardFields, options);
    const picture = document.createElement('div');
    picture.className = 'svc-table-card-cover';
    const address = cover ? coverAddress(row.valueMap[cover.name]) : undefined;
    if (address) {
      const image = document.createElement('img');
      image.src = address;
      image.alt = t('gallery.cover', { name: card.getAttribute('aria-label') ?? '' });
      image.loading = 'lazy';
      picture.append(image);
    }
    card.prepend(picture);
    card.addEventListener('click', () => options.open(row));
    card.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') options.open(row);
    });
    gallery.append(card);
  }
  if (options.rows.length === 0) {
    const empty = document.createElement('p');
    empty.className = 'svc-table-view-hint';
    empty.textContent = t('views.noRows');
    gallery.append(empty);
  }
  if (options.editable) gallery.append(addCardButton(t('gallery.addCard'), options.add));
  container.replaceChildren(gallery);
}
