// Renders graphs in the graph panel's real page (dist/webview/graph.js and graph.css, under the same
// Content-Security-Policy as in VS Code) in headless Chromium, and reports how long each took to lay out
// and draw. Used by benchmarks/graph_bench.py (webview layout time) and to look at the page by hand.
//   NODE_PATH=<dir with playwright-core> node render_graph.cjs --chromium /usr/bin/chromium \
//     [--theme dark|light] [--screenshot out.png] [--click-first-box] graph.json...
// Prints one JSON line per graph: {file, ops, visible, layoutMs, ms, edges, cspViolations}.
'use strict';
const fs = require('fs');
const http = require('http');
const path = require('path');
const { chromium } = require('playwright-core');

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  if (i < 0) return dflt;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const flag = (name) => {
  const i = args.indexOf(name);
  if (i >= 0) args.splice(i, 1);
  return i >= 0;
};
const CHROMIUM = opt('--chromium', '/usr/bin/chromium');
const THEME = opt('--theme', 'dark');
const SHOT = opt('--screenshot', '');
const CLICK_BOX = flag('--click-first-box');
const DIST = path.resolve(__dirname, '..', '..', 'dist', 'webview');
const { graphHtml } = require(path.resolve(__dirname, '..', '..', 'out', 'src', 'graph', 'controller.js'));

const THEMES = {
  dark: { cls: 'vscode-dark', bg: '#1e1e1e', fg: '#d4d4d4', muted: '#9d9d9d' },
  light: { cls: 'vscode-light', bg: '#ffffff', fg: '#1f1f1f', muted: '#616161' },
};

async function main() {
  const theme = THEMES[THEME];
  const nonce = 'n' + Math.random().toString(36).slice(2);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/') {
      const origin = `http://${req.headers.host}`;
      let html = graphHtml({ cspSource: origin, nonce, script: `${origin}/graph.js`, style: `${origin}/graph.css`, title: 'graph' });
      // VS Code defines acquireVsCodeApi and the theme class and colours; so does this page
      const stub = `<script nonce="${nonce}">window.__posted=[];window.acquireVsCodeApi=()=>({postMessage:(m)=>window.__posted.push(m)});</script>`;
      html = html.replace('<link rel="stylesheet"', `${stub}\n<link rel="stylesheet" href="${origin}/theme.css"><link rel="stylesheet"`);
      html = html.replace('<body>', `<body class="${theme.cls}">`);
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(html);
      return;
    }
    if (url.pathname === '/theme.css') {
      res.writeHead(200, { 'content-type': 'text/css' });
      res.end(`:root{--vscode-editor-background:${theme.bg};--vscode-editor-foreground:${theme.fg};--vscode-descriptionForeground:${theme.muted};--vscode-font-family:sans-serif;--vscode-font-size:13px;--vscode-editor-font-family:monospace}`);
      return;
    }
    const file = path.join(DIST, path.basename(url.pathname));
    if (!fs.existsSync(file)) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': file.endsWith('.js') ? 'text/javascript' : 'text/css' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const port = server.address().port;
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  try {
    for (const file of args) {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      const violations = [];
      page.on('console', (m) => {
        if (/Content.Security.Policy|Refused to/i.test(m.text())) violations.push(m.text());
      });
      page.on('pageerror', (e) => violations.push(`page error: ${e.message}`));
      await page.goto(`http://127.0.0.1:${port}/`);
      await page.waitForFunction(() => window.__posted.some((m) => m.type === 'ready'));
      const graph = JSON.parse(fs.readFileSync(file, 'utf8'));
      const t0 = Date.now();
      await page.evaluate((g) => window.postMessage({ type: 'graph', graph: g, keepState: false }, '*'), graph);
      await page.waitForFunction(() => window.__posted.some((m) => m.type === 'rendered'), null, { timeout: 600000 });
      const wall = Date.now() - t0;
      let rendered = await page.evaluate(() => window.__posted.find((m) => m.type === 'rendered'));
      let opened;
      if (CLICK_BOX) {
        const box = await page.$('.segment, .op.box');
        if (box) {
          const before = await page.evaluate(() => window.__posted.filter((m) => m.type === 'rendered').length);
          await box.dispatchEvent('click'); // it may lie outside the window: no scrolling needed
          await page.waitForFunction((n) => window.__posted.filter((m) => m.type === 'rendered').length > n, before, { timeout: 600000 });
          opened = await page.evaluate(() => window.__posted.filter((m) => m.type === 'rendered').pop());
        }
      }
      if (SHOT) await page.screenshot({ path: SHOT.replace(/(\.png)?$/, args.length > 1 ? `-${path.basename(file, '.json')}.png` : '.png') });
      console.log(JSON.stringify({ file: path.basename(file), ops: rendered.ops, visible: rendered.visible, layoutMs: rendered.layoutMs, ms: rendered.ms, wallMs: wall, edges: rendered.edges, opened, cspViolations: violations }));
      await page.close();
    }
  } finally {
    await browser.close();
    server.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
