// Drives a running code-server with headless Chromium (playwright-core): opens a .mlirbc through the
// mlirbc extension, reads the text, hovers a fallback op, edits, saves and checks the file changed on
// disk; then shows the graph of a JAX export and of an upstream file with nested regions, clicks a node
// and checks the selection in the text, edits the text and checks the graph follows. Each step is timed;
// the result is written as JSON (E2E_RESULT) and the exit code is 0 only if every step passed. Started by
// vscode-extension/scripts/e2e_code_server.sh, which sets the environment below.
//   E2E_URL, E2E_WORKSPACE, E2E_FILE (name inside the workspace), E2E_VIEW (its text view as our CLI
//   prints it), E2E_FILE2 / E2E_VIEW2 (the upstream file with nested regions), E2E_CHROMIUM,
//   E2E_SCREENSHOT, E2E_RESULT, E2E_PROFILE (fresh Chromium profile dir)
//
// No step relies on editor state a previous step left behind (the find widget's toggles, the cursor, the
// active tab): each one sets what it needs (it places the cursor with Go to Line at a position computed
// from the view text, activates its tab by name). Only inherently asynchronous things are waited for.
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
const VIEW = fs.readFileSync(env('E2E_VIEW'), 'utf8');
const FILE2 = env('E2E_FILE2');
const VIEW2 = fs.readFileSync(env('E2E_VIEW2'), 'utf8');
const shot = (suffix) => path.join(path.dirname(SCREENSHOT), `e2e${suffix}`);
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

/** Whether the keyboard focus is in the quick input's text box (Go to Line's, when it is open). */
async function inQuickInput(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    return el instanceof HTMLInputElement && !!el.closest('.quick-input-widget');
  });
}

/** Whether the tab of `file` shows unsaved changes. */
async function isDirty(page, file) {
  return (await page.$(`.tabs-container .tab.dirty:has-text("${file}")`)) !== null;
}

/** Open the quick input with `key` (F1, Control+G) and put `value` in its box.  Keys and text are sent
 * only while that box has the keyboard focus: it closes when it loses the focus (to a webview, a closing
 * tab), and text typed then went into the module at the cursor (CI runs found ':16:1' and a line break
 * inside a string of the view, and the steps after failed on text the test itself had broken).  False when
 * the box did not keep the focus; the caller tries again. */
async function quickInput(page, key, value) {
  if (!(await inQuickInput(page))) {
    await page.keyboard.press(key);
    if (!(await until(`the quick input (${key}) to take the keyboard`, 3000, () => inQuickInput(page), 50).catch(() => false))) {
      return false;
    }
  }
  // Set in the page in one step that checks the focus first (Playwright's `fill` focuses the element and
  // then types, wherever the focus is by then).
  const put = (v) => {
    const el = document.activeElement;
    if (!(el instanceof HTMLInputElement) || !el.closest('.quick-input-widget')) return false;
    if (el.value !== v) {
      el.value = v;
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }
    return true;
  };
  if (!(await page.evaluate(put, value))) return false;
  await sleep(100);
  return page.evaluate(put, value);
}

async function runCommand(page, title) {
  await until(`the command "${title}" in the palette`, 30000, async () => {
    if (!(await quickInput(page, 'F1', `>${title}`))) return false;
    const row = await page.waitForSelector(`.quick-input-list .monaco-list-row:has-text("${title.replace(/"/g, '\\"')}")`, { timeout: 10000 })
      .catch(() => null);
    return row !== null && (await inQuickInput(page));
  }, 500);
  await page.keyboard.press('Enter');
}

/** 1-based line and column of the `nth` match of `re` in `text` (plus `offset` characters). */
function positionOf(text, re, offset = 0, nth = 0) {
  const g = new RegExp(re.source, re.flags.includes('g') ? re.flags : re.flags + 'g');
  let m;
  for (let i = 0; i <= nth; i++) {
    m = g.exec(text);
    if (!m) throw new Error(`${re} not found in the view text`);
  }
  const at = m.index + offset;
  const line = text.slice(0, at).split('\n').length;
  return { line, col: at - (text.lastIndexOf('\n', at - 1) + 1) + 1 };
}

/** The cursor as the status bar shows it ("Ln 3, Col 7 (12 selected)"). */
async function cursorStatus(page) {
  const texts = await page.$$eval('.statusbar-item', (els) => els.map((e) => e.textContent.trim()));
  const t = texts.find((x) => /^Ln \d+, Col \d+/.test(x));
  if (!t) return undefined;
  const m = /^Ln (\d+), Col (\d+)(?: \((\d+) selected\))?/.exec(t);
  return { line: Number(m[1]), col: Number(m[2]), selected: m[3] ? Number(m[3]) : 0 };
}

/** The line of the cursor and whether text is selected in the editor showing `file`, read from the
 * editor's own drawing (so it works whether or not the editor has the keyboard focus). */
async function editorSelection(page, file) {
  const group = `.editor-group-container:has(.tab.active:has-text("${file}"))`;
  return page.$eval(`${group} .monaco-editor`, (ed) => {
    const cursor = ed.querySelector('.cursors-layer .cursor');
    if (!cursor) return undefined;
    const top = parseFloat(cursor.style.top);
    let line;
    for (const n of ed.querySelectorAll('.margin-view-overlays > div')) {
      const ln = n.querySelector('.line-numbers');
      if (ln && Math.abs(parseFloat(n.style.top) - top) < 1) line = Number(ln.textContent.trim());
    }
    return { line, selected: ed.querySelectorAll('.view-overlays .selected-text').length > 0 };
  }).catch(() => undefined);
}

/** Make the editor of `file` the active one (by its tab) and give it the keyboard focus. */
async function activate(page, file) {
  const tab = `.tabs-container .tab:has-text("${file}")`;
  await until(`the tab of ${file}`, 30000, async () => page.$(tab));
  await page.click(tab);
  // Clicking the tab focuses its editor.  A click in the text would move the cursor to the middle of the
  // editor, and an open graph panel follows the cursor into whatever function lies there (in the last
  // CI's run it showed another function than the one the next step edits).
  const focused = () => page.evaluate(() => !!document.activeElement?.closest('.editor-group-container.active .monaco-editor'));
  if (await focused()) return;
  // The editor's own input element takes the focus without a click: a click at the text's top-left corner
  // missed when the editor was scrolled sideways (the cursor at the end of a long line, after a graph
  // node selected its op: the CI's run timed out with "<html> intercepts pointer events").
  await until(`the keyboard focus in the editor of ${file}`, 30000, async () => {
    await page.evaluate(() => {
      const ed = document.querySelector('.editor-group-container.active .monaco-editor');
      const input = ed?.querySelector('textarea.inputarea, .native-edit-context, textarea');
      if (input instanceof HTMLElement) input.focus();
    });
    if (await focused()) return true;
    await page.click('.editor-group-container.active .monaco-editor .view-lines', { position: { x: 2, y: 2 }, timeout: 2000 })
      .catch(() => undefined);
    return focused();
  }, 500);
}

/** Put the cursor at (line, col), 1-based, with Go to Line: no state of the find widget involved. */
async function goTo(page, file, line, col) {
  await activate(page, file);
  const wasDirty = await isDirty(page, file);
  await until(`the cursor at ${line}:${col}`, 30000, async () => {
    if (!(await inQuickInput(page))) await activate(page, file);
    if (!(await quickInput(page, 'Control+G', `:${line}:${col}`))) return false;
    await page.keyboard.press('Enter');
    // The status bar follows the cursor a moment later: wait for it before trying again.
    return until('the status bar to show the cursor', 2000, async () => {
      const c = await cursorStatus(page);
      return c && c.line === line && c.col === col;
    }, 100).catch(() => false);
  }, 500);
  if (!wasDirty && (await isDirty(page, file))) {
    throw new Error(`going to ${line}:${col} changed the text of ${file} (a key meant for Go to Line reached the editor)`);
  }
}

/** The frames of graph panels' pages (webviews are nested iframes in VS Code). */
async function graphFrames(page) {
  const out = [];
  for (const frame of page.frames()) {
    if (await frame.$('#graph').catch(() => null)) out.push(frame);
  }
  return out;
}

/** The frame of a graph panel opened after `before` were (each file gets its own panel). */
async function newGraphFrame(page, before) {
  return until('the graph panel', 60000, async () => (await graphFrames(page)).find((f) => !before.includes(f)));
}

/** Attributes the page sets on the drawing once a layout is done. */
async function rendered(frame) {
  return frame.$eval('#graph', (e) => ({
    layoutMs: Number(e.getAttribute('data-layout-ms') ?? NaN),
    visible: Number(e.getAttribute('data-visible') ?? NaN),
    ops: Number(e.getAttribute('data-ops') ?? NaN),
    version: e.getAttribute('data-version'),
    root: e.getAttribute('data-root'),
    nodes: e.querySelectorAll('g.op, g.cluster').length,
    cursor: e.querySelector('.cursor')?.getAttribute('data-line') ?? null,
    status: document.getElementById('status')?.textContent ?? '',
  }));
}

async function openFromExplorer(page, file) {
  if (!(await page.$('.explorer-folders-view:visible'))) await page.keyboard.press('Control+Shift+E'); // show the explorer
  const row = `.explorer-folders-view .monaco-list-row:has-text("${file}")`;
  const tabOf = `.editor-group-container .tab:has-text("${file}")`;
  const viewOrError = async () => {
    const err = await webviewError(page);
    if (err) return { error: err };
    const tab = await page.$(`.editor-group-container.active .tab.active:has-text("${file}")`);
    const text = await visibleText(page);
    // the generic form (a StableHLO export with its models off) or the default pretty view (`module {`)
    if (tab && /builtin\.module|"[\w$]+\.[\w$.]+"\(|(^|\n)module\b/.test(text)) return { text };
    return undefined;
  };
  const seen = async () => {
    const tabs = await page.$$eval('.editor-group-container .tab', (els) => els.map((e) => e.textContent.trim())).catch(() => []);
    const shown = (await visibleText(page)).slice(0, 200);
    return `tabs: ${JSON.stringify(tabs)}; the active editor shows: ${JSON.stringify(shown)}; ` +
      `notifications: ${JSON.stringify(await notifications(page).catch(() => []))}`;
  };
  // Seen once in CI: the double click opened nothing, or a tab that never showed the view (no server
  // started).  A double click that lands while the explorer re-renders is lost, and a file opened before
  // the workbench knows the extension's custom editor opens in the default one: close it and open it again.
  const attempts = 3;
  for (let attempt = 1; ; attempt++) {
    await page.waitForSelector(row, { timeout: 30000 });
    await page.dblclick(row);
    const last = attempt === attempts;
    const tab = await until(`a tab of ${file}`, 20000, async () => page.$(tabOf)).catch(() => null);
    if (tab) {
      const outcome = await until('the text view or the custom editor error', last ? 120000 : 45000, viewOrError)
        .catch(async (err) => {
          if (last) throw new Error(`${err.message} (${attempt} attempts; ${await seen()})`);
          return undefined;
        });
      if (outcome && outcome.error) throw new Error(`the custom editor shows the server's error: ${outcome.error}`);
      if (outcome) return outcome.text;
    } else if (last) {
      throw new Error(`${attempts} double clicks on ${file} in the explorer opened no tab (${await seen()})`);
    }
    console.log(`\n     (attempt ${attempt}: no view of ${file} yet: ${await seen()}; opening it again)`);
    await runCommand(page, 'View: Close All Editors');
    await until('no editor open', 10000, async () => !(await page.$(tabOf)));
  }
}

/** An op's name in the view: quoted in the generic form, after `= ` (or first on its line) in a custom form. */
function opNameRe(name) {
  const n = name.replace(/\./g, '\\.');
  return new RegExp(`"${n}"|(?:= |^ *)${n} `, 'm');
}

/** Open the graph of the op at `at`, click the node `clickName`, edit with `edit`, check each effect. */
async function graphSteps(page, file, view, at, clickName, edit, label) {
  let frame;
  let first;
  await step(`${label}: Show Graph at line ${at.line}`, async () => {
    // room for the panel: both side bars closed (each toggled only when it is open)
    for (const [part, key] of [['.part.sidebar', 'Control+B'], ['.part.auxiliarybar', 'Control+Alt+B']]) {
      if (await page.$(`${part}:visible`)) {
        await page.keyboard.press(key);
        await until(`${part} closed`, 10000, async () => !(await page.$(`${part}:visible`)));
      }
    }
    await goTo(page, file, at.line, at.col);
    const before = await graphFrames(page);
    await runCommand(page, 'mlirbc: Show Graph');
    frame = await newGraphFrame(page, before);
    first = await until('the graph drawn', 120000, async () => {
      const r = await rendered(frame).catch(() => undefined);
      return r && r.nodes > 0 && !Number.isNaN(r.layoutMs) ? r : undefined;
    });
    // the op under the cursor is highlighted ...
    const cur = await until('the cursor\'s node highlighted', 30000, async () => (await rendered(frame)).cursor);
    if (Number(cur) + 1 !== at.line) throw new Error(`highlighted node starts on line ${Number(cur) + 1}, cursor on ${at.line}`);
    // ... and follows the cursor to another op, and back (at the op's first column: no horizontal scroll)
    const other = positionOf(view, opNameRe(clickName));
    await goTo(page, file, other.line, other.col + 2);
    await until(`the highlight on line ${other.line}`, 30000, async () => Number((await rendered(frame)).cursor) + 1 === other.line);
    const indent = view.split('\n')[at.line - 1].search(/\S/);
    await goTo(page, file, at.line, indent + 1);
    // Home twice: to column 1 and back to the op's first column, so the editor scrolls to its left edge
    await page.keyboard.press('Home');
    await page.keyboard.press('Home');
    await until(`the highlight back on line ${at.line}`, 30000, async () => Number((await rendered(frame)).cursor) + 1 === at.line);
    await page.screenshot({ path: shot(label === 'JAX' ? '-graph.png' : `-graph-${label.toLowerCase()}.png`) });
    return `${first.ops} ops, ${first.visible} nodes laid out in ${first.layoutMs} ms; ${first.status}`;
  });
  await step(`${label}: click the ${clickName} node selects its op in the text`, async () => {
    const node = await frame.$(`g.op:has(text.name:text-is("${clickName}"))`);
    if (!node) throw new Error(`no node ${clickName}`);
    const line = Number(await node.getAttribute('data-line')) + 1;
    // the op's range is selected: a one-line op ends on its line (the cursor sits at the selection's end)
    const opLines = view.split('\n');
    let last = line;
    if (!opLines[line - 1].includes(') : (') && /\(\{\s*$/.test(opLines[line - 1])) {
      const indent = opLines[line - 1].match(/^\s*/)[0];
      while (last < opLines.length && !opLines[last].startsWith(`${indent}})`)) last++;
      last++;
    }
    await node.click();
    const c = await until(`the selection of lines ${line}-${last} in the editor`, 30000, async () => {
      const s = await editorSelection(page, file);
      return s && s.selected && s.line === last ? s : undefined;
    });
    const lineText = opLines[line - 1];
    if (!opNameRe(clickName).test(lineText)) throw new Error(`line ${line} of the view is not ${clickName}: ${lineText.slice(0, 80)}`);
    if (label === 'JAX') await page.screenshot({ path: shot('-graph-clicked.png') });
    return `the op on line ${line} is selected (the cursor at its end, line ${c.line})`;
  });
  await step(`${label}: an edit of the text changes the graph`, async () => {
    const before = await rendered(frame);
    await goTo(page, file, edit.line, 1);
    await page.keyboard.insertText(edit.text);
    await page.keyboard.press('Home'); // back to the left edge after the long line
    const after = await until('the graph of the edited text', 60000, async () => {
      const r = await rendered(frame);
      if (r.version !== before.version && r.ops === before.ops + 1) return r;
      // what the graph shows instead, for the failure's message
      throw new Error(`it shows version ${r.version} (before: ${before.version}) of ${r.root} with ${r.ops} ops; status "${r.status}"`);
    });
    const texts = await frame.$$eval('g.op', (els) => els.map((e) => e.textContent));
    if (!texts.some((t) => t.includes(edit.name))) throw new Error(`no node with ${edit.name} after the edit`);
    await page.screenshot({ path: shot(label === 'JAX' ? '-graph-edited.png' : `-graph-${label.toLowerCase()}-edited.png`) });
    return `version ${before.version} -> ${after.version}: ${before.ops} -> ${after.ops} ops`;
  });
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
        if (!(await quickInput(page, 'F1', '>mlirbc: Restart Server'))) return false;
        const row = await page.waitForSelector('.quick-input-list .monaco-list-row:has-text("mlirbc: Restart Server")', { timeout: 3000 }).catch(() => null);
        await page.keyboard.press('Escape');
        return row !== null;
      }, 1000);
    });

    await step(`open ${FILE} (custom editor -> mlirbc: view)`, async () => {
      const text = await openFromExplorer(page, FILE);
      const tab = await page.$eval('.editor-group-container.active .tab.active', (e) => e.getAttribute('aria-label') || e.textContent);
      return `tab "${tab}"; first visible line: ${text.split('\n')[0].slice(0, 120)}`;
    });

    await step('status bar shows bytecode info', async () => {
      return until('the mlirbc status bar item', 30000, async () => {
        const texts = await page.$$eval('.statusbar-item', (els) => els.map((e) => e.textContent.trim()));
        const ours = texts.find((t) => t.includes('MLIR bc') && !t.includes('…'));
        return ours;
      });
    });

    await step('hover on a fallback op', async () => {
      const at = positionOf(VIEW, /"[\w.]+"(?=\(.*mlirbc\.properties)/, 2);
      await goTo(page, FILE, at.line, at.col);
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
      // The block argument's own location: the view prints aliases (the default), and the `#loc1` defined
      // for it before the module, as MLIR prints it, is used nowhere (an edit there changes nothing).
      const at = positionOf(VIEW, /(?<=%arg6: [^\n]*?loc\(")params\['b1/, "params['b1".length);
      await goTo(page, FILE, at.line, at.col);
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

    // The graph of the JAX export: the cursor on its first vhlo.add_v1; click a dot_general; add an op.
    const addLine = positionOf(VIEW, /^\s*%\d+ = "vhlo\.add_v1"/m).line;
    const addText = VIEW.split('\n')[addLine - 1];
    await graphSteps(page, FILE, VIEW, { line: addLine, col: addText.indexOf('"vhlo.add_v1"') + 3 }, 'vhlo.dot_general_v2',
      { line: addLine + 1, text: addText.replace(/^(\s*)%\d+ =/, '$1%e2e =') + '\n', name: '%e2e: ' }, 'JAX');

    // An upstream file with nested regions: scf.for in scf.for in scf.for.
    await step(`open ${FILE2} (nested regions)`, async () => {
      const text = await openFromExplorer(page, FILE2);
      return `first visible line: ${text.split('\n')[0].slice(0, 100)}`;
    });
    // The default (pretty) view: `scf.yield` is implicit; the new op goes at the end of the middle loop's body,
    // before the line that closes it (the first `}` at its depth).
    const cmp = positionOf(VIEW2, /arith\.select /);
    const yieldLine = positionOf(VIEW2, /^ {6}\} loc\(/m).line;
    await graphSteps(page, FILE2, VIEW2, { line: cmp.line, col: cmp.col + 2 }, 'arith.cmpi',
      { line: yieldLine, text: '        %e2e = "arith.addi"(%arg3, %arg4) : (index, index) -> index\n', name: '%e2e: index' }, 'Upstream');
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
