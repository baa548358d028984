/**
 * The catalogue page in a real browser: Debian's headless Chromium driven by
 * playwright-core (no browser download), against `skillport serve --http
 * --watch` over a folder with a hostile skill. Over keyboard and mouse: the
 * list filters as you type; Tab reaches a skill and Enter opens it; a copy
 * button copies the host's command; the hostile skill's view runs no script
 * (no dialog, no marker set on `window`, no script blocked by the CSP, which
 * would mean markup got through); the page follows a change to the folder
 * (a skill added to the list, a skill removed from its own view);
 * and without JavaScript the search still works as a form.
 *
 * SKILLPORT_SCREENSHOT=docs/catalogue-page.png also writes the
 * screenshot docs/http-and-auth.md shows, over the bundled skills.
 */
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../_stdio-client.js';
import { writeHostileFolder } from '../skills/page/_hostile.js';
import { type ServedCli, serveCli } from '../skills/page/_serve.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let browser: Browser;
let cli: ServedCli;
let folder: { dir: string; remove(): void };

beforeAll(async () => {
  folder = writeHostileFolder();
  // A few ordinary skills beside the hostile one, so there is a list to filter.
  cpSync(join(ROOT, 'skills/release-notes'), join(folder.dir, 'release-notes'), { recursive: true });
  cpSync(join(ROOT, 'skills/sql-review'), join(folder.dir, 'sql-review'), { recursive: true });
  cli = await serveCli([folder.dir, '--watch']);
  // As root in CI, Chromium's own sandbox cannot start; the test's pages are the server's own.
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, chromiumSandbox: false });
});
afterAll(async () => {
  await browser?.close();
  await cli?.stop();
  folder?.remove();
});

interface Watched {
  page: Page;
  dialogs: string[];
  /** The CSP directives that blocked something, from the page's own `securitypolicyviolation` events. */
  violations(): Promise<string[]>;
}

async function open(javaScriptEnabled = true): Promise<Watched> {
  const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 1000, height: 760 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(cli.page).origin });
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  // Init scripts run through the DevTools protocol, outside the page's CSP: they watch, they take no part.
  await page.addInitScript(
    "window.__violations = []; document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.effectiveDirective + ' ' + e.blockedURI));",
  );
  return { page, dialogs, violations: () => page.evaluate('window.__violations || []') as Promise<string[]> };
}

const names = (page: Page) => page.locator('li.skill h3 a').allTextContents();

describe('the catalogue page in Chromium', () => {
  it('filters as you type, and Tab then Enter opens a skill', async () => {
    const { page, dialogs, violations } = await open();
    await page.goto(cli.page);
    expect((await names(page)).sort()).toEqual(['calm', 'hostile', 'release-notes', 'sql-review']);
    await page.locator('#q').click();
    await page.keyboard.type('sql');
    await expect.poll(() => names(page), { timeout: 10_000 }).toEqual(['sql-review']);
    expect(new URL(page.url()).searchParams.get('q')).toBe('sql');
    // Tab from the search box: the button, the hosts' summary, then the first skill.
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate('document.activeElement && document.activeElement.textContent')) === 'sql-review') break;
    }
    expect(await page.evaluate('document.activeElement.textContent')).toBe('sql-review');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\?skill=sql-review$/);
    expect(await page.locator('article.skill-view > h2').textContent()).toBe('sql-review');
    expect(await page.locator('section h3').allTextContents()).toContain('Files');
    expect(dialogs).toEqual([]);
    expect(await violations()).toEqual([]);
  });

  it('runs no script from a hostile skill', async () => {
    const { page, dialogs, violations } = await open();
    await page.goto(`${cli.page}?skill=hostile`);
    expect(await page.locator('article.skill-view > h2').textContent()).toBe('hostile');
    // Hover and click what the text tried to make live; nothing of it is an element.
    await page.getByText('raw anchor').click();
    await page.getByText('bold', { exact: false }).first().hover();
    // Search as you type puts the hostile list in by innerHTML: it must stay inert there too.
    await page.locator('#q').click();
    await page.keyboard.type('hostile');
    await expect.poll(() => names(page), { timeout: 10_000 }).toEqual(['hostile']);
    expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
    expect(dialogs).toEqual([]);
    expect(await violations()).toEqual([]);
    expect(await page.locator('script').count()).toBe(1);
    expect(await page.locator('iframe, svg, img, object, embed').count()).toBe(0);
    expect(await page.locator('[onerror], [onload], [onmouseover]').count()).toBe(0);
    const hrefs = await page.locator('a[href]').evaluateAll((links) => links.map((a) => (a as unknown as { protocol: string }).protocol));
    for (const protocol of hrefs) expect(['http:', 'https:', 'vscode:', 'cursor:']).toContain(protocol);
  });

  it('copies a host’s command with the mouse', async () => {
    const { page } = await open();
    await page.goto(cli.page);
    await page.getByText('Connect a host').click();
    const button = page.locator('button[data-copy="connect-claude-code"]');
    await button.click();
    await expect.poll(() => button.textContent(), { timeout: 10_000 }).toBe('Copied');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(`claude mcp add --transport http skillport ${cli.url}`);
  });

  it('follows a change to the served folder', async () => {
    const { page } = await open();
    await page.goto(cli.page);
    mkdirSync(join(folder.dir, 'fresh-skill'));
    writeFileSync(join(folder.dir, 'fresh-skill/SKILL.md'), '---\nname: fresh-skill\ndescription: Appeared while the page was open.\n---\nHello.\n');
    // Bounded by the wait: the page polls every few seconds, the server reloads on the change.
    await expect.poll(() => names(page), { timeout: 30_000, interval: 500 }).toContain('fresh-skill');
    expect(await page.getByText('Appeared while the page was open.').count()).toBe(1);
    // A skill's own view, when the skill goes away, says so.
    await page.getByRole('link', { name: 'fresh-skill' }).click();
    await page.waitForURL(/\?skill=fresh-skill$/);
    rmSync(join(folder.dir, 'fresh-skill'), { recursive: true });
    const heading = page.locator('article.skill-view > h2');
    await expect.poll(() => heading.textContent(), { timeout: 30_000, interval: 500 }).toBe('No skill named “fresh-skill”');
  });

  it('searches without JavaScript as a plain form', async () => {
    const { page } = await open(false);
    await page.goto(cli.page);
    await page.locator('#q').click();
    await page.keyboard.type('sql');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\?q=sql$/);
    expect(await names(page)).toEqual(['sql-review']);
    // No script, no copy: the buttons stay hidden, the text is there to select.
    expect(await page.locator('button[data-copy]').first().isHidden()).toBe(true);
  });

  it.runIf(process.env.SKILLPORT_SCREENSHOT)('writes the screenshot of the docs over the bundled skills', async () => {
    const bundled = await serveCli([join(ROOT, 'skills')]);
    try {
      const { page } = await open();
      await page.goto(bundled.page);
      await page.screenshot({ path: join(ROOT, process.env.SKILLPORT_SCREENSHOT as string), fullPage: false });
    } finally {
      await bundled.stop();
    }
  });
});
