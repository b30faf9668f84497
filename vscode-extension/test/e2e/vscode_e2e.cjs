// Drives a running code-server with headless Chromium (playwright-core): opens a .mlirbc through the
// mlirbc extension, reads the text, hovers a fallback op, edits, saves and checks the file changed on
// disk. Each step is timed; the result is written as JSON (E2E_RESULT) and the exit code is 0 only if
// every step passed. Started by vscode-extension/scripts/e2e_code_server.sh, which sets the environment below.
//   E2E_URL, E2E_WORKSPACE, E2E_FILE (name inside the workspace), E2E_CHROMIUM, E2E_SCREENSHOT,
//   E2E_RESULT, E2E_PROFILE (fresh Chromium profile dir)
'use strict';
const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`missing ${name}`);
  return v;
};
const URL_ = env('E2E_URL');
const WORKSPACE = env('E2E_WORKSPACE');
const FILE = env('E2E_FILE');
const SCREENSHOT = env('E2E_SCREENSHOT');
const RESULT = env('E2E_RESULT');
const FILE_PATH = path.join(WORKSPACE, FILE);
const CHROMIUM_FLAGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
];

const steps = [];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function step(name, fn) {
  const t0 = Date.now();
  process.stdout.write(`  -- ${name} ... `);
  try {
    const detail = await fn();
    const seconds = (Date.now() - t0) / 1000;
    steps.push({ name, ok: true, seconds, detail: detail ?? '' });
    console.log(`ok (${seconds.toFixed(1)}s)${detail ? `: ${String(detail).slice(0, 300)}` : ''}`);
    return detail;
  } catch (err) {
    const seconds = (Date.now() - t0) / 1000;
    const detail = err && err.message ? err.message : String(err);
    steps.push({ name, ok: false, seconds, detail });
    console.log(`FAILED (${seconds.toFixed(1)}s): ${detail.slice(0, 2000)}`);
    throw err;
  }
}

/** Polls `probe` until it returns a truthy value or the time runs out. */
async function until(what, timeoutMs, probe, intervalMs = 250) {
  const end = Date.now() + timeoutMs;
  let last;
  while (Date.now() < end) {
    try {
      last = await probe();
      if (last) return last;
    } catch (err) {
      last = err;
    }
    await sleep(intervalMs);
  }
  throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what}${last instanceof Error ? `: ${last.message}` : ''}`);
}

async function notifications(page) {
  return page.$$eval('.notifications-toasts .notification-list-item-message, .notifications-center .notification-list-item-message',
    (els) => els.map((e) => e.textContent.trim()).filter(Boolean));
}

/** Text of the visible lines of the active editor. */
async function visibleText(page) {
  return page.$eval('.editor-group-container.active .monaco-editor .view-lines', (e) => e.innerText).catch(() => '');
}

/** The error our custom editor shows in its webview when the server cannot convert the file. */
async function webviewError(page) {
  for (const frame of page.frames()) {
    const el = await frame.$('#mlirbc-error').catch(() => null);
    if (el) return (await el.textContent()).trim();
  }
  return undefined;
}

async function runCommand(page, title) {
  await page.keyboard.press('F1');
  const input = await page.waitForSelector('.quick-input-widget input', { timeout: 10000 });
  await input.fill(`>${title}`);
  await page.waitForSelector(`.quick-input-list .monaco-list-row:has-text("${title.replace(/"/g, '\\"')}")`, { timeout: 10000 });
  await page.keyboard.press('Enter');
}

/** Find (Ctrl+F) `query` in the active editor, optionally as a regex, and close the widget: the match stays selected. */
async function findInEditor(page, query, regex) {
  await page.click('.editor-group-container.active .monaco-editor .view-lines');
  await page.keyboard.press('Control+F');
  const input = await page.waitForSelector('.editor-group-container.active .find-widget.visible textarea, .editor-group-container.active .find-widget.visible input', { timeout: 10000 });
  // The regex toggle keeps its state between searches: set it as wanted.
  const toggle = await page.$('.editor-group-container.active .find-widget.visible .monaco-custom-toggle[aria-label*="Regular Expression"]');
  if (toggle) {
    const checked = await toggle.evaluate((e) => e.classList.contains('checked') || e.getAttribute('aria-checked') === 'true');
    if (checked !== regex) await toggle.click();
  }
  await input.fill(query);
  await sleep(300);
  const count = await page.$eval('.editor-group-container.active .find-widget.visible .matchesCount', (e) => e.textContent).catch(() => '');
  if (/No results/i.test(count)) throw new Error(`find "${query}": no results`);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  return count;
}

async function main() {
  const profile = env('E2E_PROFILE');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: env('E2E_CHROMIUM'),
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1600, height: 1000 },
  });
  const page = context.pages()[0] || (await context.newPage());
  const original = fs.readFileSync(FILE_PATH);
  try {
    await step('workbench loads', async () => {
      await page.goto(`${URL_}/?folder=${encodeURIComponent(WORKSPACE)}`, { waitUntil: 'domcontentloaded', timeout: 60000 });
      await page.waitForSelector('.monaco-workbench .part.statusbar', { timeout: 120000 });
      await page.waitForSelector('.explorer-folders-view .monaco-list-row', { timeout: 60000 });
      return `${await page.title()}`;
    });

    await step('extension is installed (its commands are in the palette)', async () => {
      // The palette lists what is registered when it opens: retry while the extension host starts.
      await until('the "mlirbc: Restart Server" command', 90000, async () => {
        await page.keyboard.press('F1');
        const input = await page.waitForSelector('.quick-input-widget input', { timeout: 10000 });
        await input.fill('>mlirbc: Restart Server');
        const row = await page.waitForSelector('.quick-input-list .monaco-list-row:has-text("mlirbc: Restart Server")', { timeout: 3000 }).catch(() => null);
        await page.keyboard.press('Escape');
        return row !== null;
      }, 1000);
    });

    await step(`open ${FILE} (custom editor -> mlirbc: view)`, async () => {
      const row = `.explorer-folders-view .monaco-list-row:has-text("${FILE}")`;
      await page.waitForSelector(row, { timeout: 30000 });
      await page.dblclick(row);
      const outcome = await until('the text view or the custom editor error', 120000, async () => {
        const err = await webviewError(page);
        if (err) return { error: err };
        const text = await visibleText(page);
        if (/builtin\.module|"[\w$]+\.[\w$.]+"\(/.test(text)) return { text };
        return undefined;
      });
      if (outcome.error) throw new Error(`the custom editor shows the server's error: ${outcome.error}`);
      const tab = await page.$eval('.editor-group-container.active .tab.active', (e) => e.getAttribute('aria-label') || e.textContent);
      return `tab "${tab}"; first visible line: ${outcome.text.split('\n')[0].slice(0, 120)}`;
    });

    await step('status bar shows bytecode info', async () => {
      return until('the mlirbc status bar item', 30000, async () => {
        const texts = await page.$$eval('.statusbar-item', (els) => els.map((e) => e.textContent.trim()));
        const ours = texts.find((t) => t.includes('MLIR bc') && !t.includes('…'));
        return ours;
      });
    });

    await step('hover on a fallback op', async () => {
      await findInEditor(page, '"[\\w.]+"(?=\\(.*mlirbc\\.properties)', true);
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      // Move the mouse onto the cursor, as a person would, and also ask for the hover by keyboard.
      const cursor = await page.$('.editor-group-container.active .monaco-editor .cursors-layer .cursor');
      const box = cursor && (await cursor.boundingBox());
      if (box) await page.mouse.move(box.x + 4, box.y + box.height / 2);
      await page.keyboard.press('Control+K');
      await page.keyboard.press('Control+I');
      const text = await until('a hover with content', 30000, async () => {
        const t = await page.$$eval('.monaco-hover:not(.hidden) .monaco-hover-content, .monaco-resizable-hover .monaco-hover-content',
          (els) => els.map((e) => e.innerText.trim()).filter((s) => s && !/^Loading/.test(s)).join('\n---\n'));
        return t;
      });
      fs.mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
      await page.screenshot({ path: SCREENSHOT });
      return text.replace(/\s+/g, ' ').slice(0, 400);
    });

    await step('show bytecode info command', async () => {
      await page.keyboard.press('Escape');
      await runCommand(page, 'mlirbc: Show Bytecode Info');
      await until('the info tab', 30000, async () =>
        page.$('.editor-group-container.active .tab.active[aria-label*="info.json"], .editor-group-container.active .tab.active:has-text("info.json")'));
      const text = await until('the info document', 30000, async () => {
        const t = await visibleText(page);
        return /"version"/.test(t) ? t : undefined;
      });
      await page.keyboard.press('Control+W'); // close the info tab; the view is active again
      return text.replace(/\s+/g, ' ').slice(0, 200);
    });

    await step('edit the text', async () => {
      await page.click(`.tabs-container .tab:has-text("${FILE}")`);
      await findInEditor(page, "params['b1", false);
      await page.keyboard.press('ArrowRight');
      await page.keyboard.type('_e2e');
      await until('the edited text', 10000, async () => (await visibleText(page)).includes("params['b1_e2e']"));
      await until('the dirty tab marker', 10000, async () => page.$('.tabs-container .tab.dirty'));
    });

    await step('save (server encodes, bytes written)', async () => {
      await page.keyboard.press('Control+S');
      let cleanSince;
      const result = await until('the save to finish', 120000, async () => {
        const msgs = await notifications(page);
        const failed = msgs.find((m) => /Failed to save|not saved|mlirbc/i.test(m));
        if (failed) return { error: failed };
        const dirty = await page.$('.tabs-container .tab.dirty');
        const now = fs.readFileSync(FILE_PATH);
        if (!dirty && !now.equals(original)) return { size: now.length };
        if (!dirty && (cleanSince ??= Date.now()) < Date.now() - 15000) return { error: 'saved, but the bytes on disk did not change' };
        return undefined;
      });
      if (result.error) throw new Error(`save reported: ${result.error}`);
      await page.screenshot({ path: SCREENSHOT.replace(/\.png$/, '-saved.png') });
      return `${original.length} -> ${result.size} bytes on disk`;
    });

    await step('an invalid edit is refused on save and the file is left untouched', async () => {
      const before = fs.readFileSync(FILE_PATH);
      await page.click('.editor-group-container.active .monaco-editor .view-lines');
      await page.keyboard.press('Control+Home');
      await page.keyboard.insertText('this is not MLIR ');
      await until('the dirty tab marker', 10000, async () => page.$('.tabs-container .tab.dirty'));
      await page.keyboard.press('Control+S');
      const message = await until('the refusal notification', 60000, async () =>
        (await notifications(page)).find((m) => /not saved|Failed to save/i.test(m)));
      await page.screenshot({ path: SCREENSHOT.replace(/\.png$/, '-refused.png') });
      if (!fs.readFileSync(FILE_PATH).equals(before)) throw new Error('the file changed on disk');
      await page.keyboard.press('Escape');
      await page.click('.editor-group-container.active .monaco-editor .view-lines');
      await until('the tab to be clean after undo', 15000, async () => {
        if (!(await page.$('.tabs-container .tab.dirty'))) return true;
        await page.keyboard.press('Control+Z');
        return false;
      }, 1000);
      return message.replace(/\s+/g, ' ').slice(0, 300);
    });
  } finally {
    try {
      if (!fs.existsSync(SCREENSHOT) || steps.some((s) => !s.ok)) {
        fs.mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
        await page.screenshot({ path: steps.some((s) => !s.ok) ? SCREENSHOT.replace(/\.png$/, '-failure.png') : SCREENSHOT });
      }
      const msgs = await notifications(page).catch(() => []);
      if (msgs.length) console.log(`  notifications: ${JSON.stringify(msgs)}`);
    } catch (err) {
      console.log(`  (no screenshot: ${err.message})`);
    }
    await context.close();
  }
}

main()
  .then(() => 0, () => 1)
  .then((code) => {
    fs.writeFileSync(RESULT, JSON.stringify({ ok: code === 0, steps }, null, 2));
    process.exit(code);
  });
