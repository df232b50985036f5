// viewer-screenshots.mjs - the README's pictures of the web pages vchess-render
// -T html writes, taken in headless Chromium through puppeteer-core:
//
//   PATH=build/bin:$PATH node tests/node/viewer-screenshots.mjs [OUTDIR]
//
// writes OUTDIR/viewer-*.png (default doc/img) from archives of corpora/; run
// from the repository's top.  Needs Debian's chromium (CHROMIUM to name another)
// and npm ci in tests/node.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer from 'puppeteer-core';

const out = process.argv[2] || 'doc/img';
const shots = [
	// [picture, archive, fragment, width, height]
	['viewer-io', 'corpora/io/sample.pgn', '#g1p12', 1200, 900],
	['viewer-crazyhouse', 'corpora/crazyhouse/drop-mate.pgn', '#g1p14', 1100, 800],
	['viewer-sico', 'corpora/sico/multiplayer.pgn', '#g1p13', 1100, 760],
	['viewer-phone', 'corpora/schizochess/games.pgn', '#g2p5', 390, 844]
];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'viewer-shots-'));
const browser = await puppeteer.launch({
	executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
	userDataDir: path.join(tmp, 'profile'),
	args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--hide-scrollbars',
		'--disable-background-networking', '--disable-component-update', '--disable-sync']
});
try {
	for (const [name, archive, hash, width, height] of shots) {
		const html = path.join(tmp, name + '.html');
		try {
			execFileSync('vchess-render', ['-T', 'html', '-o', html, archive], { stdio: 'ignore' });
		} catch (e) {
			// a page with broken games exits 1, and is written all the same
		}
		const page = await browser.newPage();
		await page.setViewport({ width, height, deviceScaleFactor: 1 });
		await page.goto('file://' + path.resolve(html) + hash, { waitUntil: 'load' });
		await page.waitForFunction(() => window.vchessViewer && window.vchessViewer.timing.index);
		// the index folded, so that the board and the moves fill the picture
		await page.evaluate(() => { document.querySelector('.vc-index').open = false; });
		await page.screenshot({ path: path.join(out, name + '.png') });
		await page.close();
		console.log('wrote ' + path.join(out, name + '.png'));
	}
} finally {
	await browser.close();
	fs.rmSync(tmp, { recursive: true, force: true });
}
