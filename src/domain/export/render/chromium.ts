import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import type { Scratch } from '../../conversion/scratch.js';
import { FONT_ORIGIN, MAX_IMAGE_HEIGHT, printTemplate, type RenderedHtml } from '../converters/html.js';
import { fontFile } from './fonts.js';
import { layOutFootnotePages } from './footnote-pages.js';

/**
 * Headless Chromium as the PDF and JPEG renderer: one browser per process, launched on first use (the
 * binary inside @sparticuz/chromium, or CHROMIUM_PATH), each render in its own page whose every request is
 * intercepted: the font files are answered from the font package in-process, everything else is refused and
 * counted (the page carries the file's own images as data: URIs, so a refused request is one the content tried
 * on its own; the export task's result reports how many). A render that passes its deadline closes the browser (Playwright kills the process)
 * and the next render launches a fresh one.
 */

/** Flags of @sparticuz/chromium we leave out: no web-security bypass; `--single-process` crashes when a context closes. */
const DROPPED_FLAGS = new Set(['--disable-web-security', '--single-process']);
const JPEG_QUALITY = 85;
/** Device pixels per CSS pixel of JPEGs: sharp text on ordinary screens. */
const IMAGE_SCALE = 1.5;

export class RenderTimeout extends Error {}
export class ImageTooTall extends Error {
  constructor(readonly height: number) {
    super(`the page is ${height} pixels tall, more than the ${MAX_IMAGE_HEIGHT} an image export holds`);
  }
}

/** What a render produced, and how many requests of the page were refused (nothing leaves the process). */
export interface Rendering {
  bytes: Uint8Array;
  refusedRequests: number;
}

export interface RendererOptions {
  /** the Chromium binary; unset: the one @sparticuz/chromium unpacks */
  executablePath?: string | undefined;
}

export class ChromiumRenderer {
  /** the browser: one persistent context (the only way Playwright takes a profile folder), a page per render */
  private browser: Promise<BrowserContext> | undefined;
  /** removals of the scratch folders of browsers that closed, awaited by `kill` */
  private readonly releases = new Set<Promise<void>>();

  constructor(
    private readonly scratch: Scratch,
    private readonly options: RendererOptions = {},
  ) {}

  /**
   * Chromium with a profile of its own in a scratch folder (its TMPDIR and Playwright's artifacts there too), not
   * in the system's temporary folder: the folder goes when the browser does, and a process killed outright leaves
   * it where the next start removes it (Scratch).
   */
  private launch(): Promise<BrowserContext> {
    if (!this.browser) {
      const launching = (async (): Promise<BrowserContext> => {
        // loaded on first use: Playwright's client and the Chromium package were about 55 MiB of the idle service's
        // resident memory, held for nothing until a PDF or image export (docs/PERFORMANCE.md, issue 21)
        const [{ default: chromium }, { chromium: playwright }] = await Promise.all([import('@sparticuz/chromium'), import('playwright-core')]);
        const executablePath = this.options.executablePath || (await chromium.executablePath());
        const folder = await this.scratch.folder('chromium');
        try {
          const context = await playwright.launchPersistentContext(path.join(folder.path, 'profile'), {
            executablePath,
            args: chromium.args.filter((flag) => !DROPPED_FLAGS.has(flag)),
            headless: true,
            artifactsDir: path.join(folder.path, 'artifacts'),
            env: { ...process.env, TMPDIR: folder.path },
            deviceScaleFactor: IMAGE_SCALE,
          });
          context.on('close', () => {
            if (this.browser === launching) this.browser = undefined;
            const release = folder.release();
            this.releases.add(release);
            void release.finally(() => this.releases.delete(release));
          });
          return context;
        } catch (error) {
          await folder.release();
          throw error;
        }
      })();
      this.browser = launching;
      launching.catch(() => {
        if (this.browser === launching) this.browser = undefined;
      });
    }
    return this.browser;
  }

  /** Runs `use` on a fresh page of `rendered`, within `deadlineMs`; past it the browser is killed. */
  private async withPage(rendered: RenderedHtml, deadlineMs: number, use: (page: Page) => Promise<Uint8Array>): Promise<Rendering> {
    const browserPromise = this.launch();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RenderTimeout(`rendering took longer than ${deadlineMs} ms`)), deadlineMs);
    });
    let page: Page | undefined;
    let refusedRequests = 0;
    try {
      return await Promise.race([
        (async () => {
          const browser = await browserPromise;
          page = await browser.newPage();
          await page.setViewportSize({ width: rendered.page.imageWidth, height: 800 });
          await page.route('**/*', async (route) => {
            const url = route.request().url();
            const font = url.startsWith(`${FONT_ORIGIN}/fonts/`) ? fontFile(url.slice(FONT_ORIGIN.length + 7)) : undefined;
            if (font) await route.fulfill({ status: 200, contentType: 'font/woff2', body: font });
            else {
              refusedRequests++;
              await route.abort('blockedbyclient');
            }
          });
          await page.setContent(rendered.html, { waitUntil: 'load', timeout: deadlineMs });
          // printing does not wait for web fonts by itself
          await page.evaluate('document.fonts.ready.then(() => true)');
          const bytes = await use(page);
          return { bytes, refusedRequests };
        })(),
        deadline,
      ]);
    } catch (error) {
      if (error instanceof RenderTimeout) await this.kill();
      throw error;
    } finally {
      clearTimeout(timer);
      if (page) await page.close().catch(() => undefined);
    }
  }

  /** The page printed to PDF (the paper of the page setup, A4 or the slide size; the page setup's header and footer in the margins; footnotes at the bottom of their page). */
  pdf(rendered: RenderedHtml, deadlineMs: number): Promise<Rendering> {
    return this.withPage(rendered, deadlineMs, async (page) => {
      const setup = rendered.page;
      await layOutFootnotePages(page, setup);
      const bytes = await page.pdf({
        printBackground: true,
        preferCSSPageSize: true,
        ...(setup.format ? { format: setup.format, landscape: setup.landscape ?? false } : { width: `${setup.width}px`, height: `${setup.height}px` }),
        ...(setup.margins && (setup.header || setup.footer)
          ? {
              displayHeaderFooter: true,
              headerTemplate: printTemplate(setup.header, setup.margins, 'top'),
              footerTemplate: printTemplate(setup.footer, setup.margins, 'bottom'),
            }
          : {}),
      });
      return new Uint8Array(bytes);
    });
  }

  /** The whole page as one JPEG (documents as one long image, slides one under another). */
  jpg(rendered: RenderedHtml, deadlineMs: number): Promise<Rendering> {
    return this.withPage(rendered, deadlineMs, async (page) => {
      const height = Number(await page.evaluate('Math.ceil(document.body.getBoundingClientRect().height)'));
      if (height > MAX_IMAGE_HEIGHT) throw new ImageTooTall(height);
      await page.setViewportSize({ width: rendered.page.imageWidth, height: Math.max(1, height) });
      const bytes = await page.screenshot({ type: 'jpeg', quality: JPEG_QUALITY, fullPage: true, clip: { x: 0, y: 0, width: rendered.page.imageWidth, height: Math.max(1, height) } });
      return new Uint8Array(bytes);
    });
  }

  /** Closes the browser (Playwright kills it if it does not close) and removes its folder; the next render launches a new one. */
  async kill(): Promise<void> {
    const browser = this.browser;
    this.browser = undefined;
    if (browser) await (await browser.catch(() => undefined))?.close().catch(() => undefined);
    await Promise.all(this.releases);
  }
}
