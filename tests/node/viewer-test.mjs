// viewer-test.mjs - the web page of vchess-render -T html, driven in headless
// Chromium through puppeteer-core (tests/scripts/viewer.sh runs it).
//
//   node viewer-test.mjs [--full] [--lichess FILE] ARCHIVE...
//
// For each archive it writes the page and, with vchess-convert, vchess's own
// positions of every game (-t fen --plies: the main line; --fen-comments -t
// json-lines: every move replayed, variations included), then in the browser:
//  - the index lists every game of the archive (vchess-validate --summary
//    counts them), text that is no game included;
//  - for every game with a board: the start shown for #gNp0, then each ply
//    reached with the arrow key (see testGame), compared piece by piece and reserve by reserve
//    with vchess's position (and the side to move), the fragment #gNpK after
//    each; End, Home and a flipped board; every move of a variation clicked
//    and compared (#gNvI); a fragment opened in a new load;
//  - the diagrams of the main line of each variant's first game (with --full,
//    of every game), every element of them, against vchess-render -T svg of
//    the same ply;
//  - filtering and sorting the index; the layout at a phone's width;
//  - not one console error or uncaught exception.
// With --lichess FILE it measures a page of FILE's games: its size, the time to
// the first paint, and the time of a step.  Prints "ok NAME", "not ok NAME"
// (with indented details) and "skip NAME # reason" lines, and exits 0.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer from 'puppeteer-core';

const argv = process.argv.slice(2);
let lichess = null, full = false;
const archives = [];
for (let i = 0; i < argv.length; i++) {
	if (argv[i] === '--full')
		full = true;
	else if (argv[i] === '--lichess')
		lichess = argv[++i];
	else
		archives.push(argv[i]);
}

const tmp = fs.mkdtempSync(path.join(process.env.TMPDIR || os.tmpdir(), 'viewer-'));
const run = (cmd, args) => {
	try {
		return execFileSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] });
	} catch (e) {
		return e.stdout || ''; // broken games exit 1, with their output written
	}
};

function report(name, problems) {
	if (!problems.length) {
		console.log('ok ' + name);
		return;
	}
	console.log('not ok ' + name);
	for (const p of problems.slice(0, 8))
		console.log('    ' + p);
	if (problems.length > 8)
		console.log('    ... and ' + (problems.length - 8) + ' more');
}

// ---- vchess's positions ------------------------------------------------------------

// A position string's board and reserves as the page shows them: square ->
// "wN", "bCN~", "nW!" (colour, symbol, promoted, dead); "area:colour:symbol" ->
// count; the side to move.
function readFen(fen, v) {
	const board = new Map(), res = new Map();
	const sp = fen.indexOf(' ');
	const side = fen.slice(sp + 1, sp + 2);
	let place = fen.slice(0, sp);
	const br = place.indexOf('[');
	const reserves = br >= 0 ? place.slice(br) : '';
	if (br >= 0)
		place = place.slice(0, br);
	const ranks = place.split('/');
	const partner = new Map();
	ranks.forEach((row, i) => {
		const r = v.ranks - 1 - i;
		let f = 0, j = 0;
		while (j < row.length) {
			const ch = row[j];
			if (/[0-9]/.test(ch)) {
				let n = 0;
				while (j < row.length && /[0-9]/.test(row[j]))
					n = n * 10 + Number(row[j++]);
				f += n;
				continue;
			}
			const sq = r * v.files + f;
			if (ch === '=') {
				board.set(sq, partner.get(sq) || '?=');
				j++;
				f++;
				continue;
			}
			let colour = null;
			if (ch === '*') {
				colour = 'n';
				j++;
			}
			let sym;
			if (row[j] === '+') {
				// a promoted kind written '+X' (the shogi family)
				sym = '+' + row[j + 1];
				j += 2;
			} else if (row[j] === '(') {
				const end = row.indexOf(')', j);
				sym = row.slice(j + 1, end);
				j = end + 1;
			} else {
				sym = row[j++];
			}
			const letter = sym.replace('+', '');
			colour = colour || (letter === letter.toUpperCase() ? 'w' : 'b');
			let mark = '';
			if ('>|\\<'.includes(row[j]))
				mark = row[j++];
			let flags = '';
			if (row[j] === '~') {
				flags += '~';
				j++;
			}
			if (row[j] === '!') {
				flags += '!';
				j++;
			}
			const token = colour + sym.toUpperCase() + flags;
			board.set(sq, token);
			const off = { '>': 1, '|': -v.files, '\\': -v.files + 1, '<': -v.files - 1 }[mark];
			if (off !== undefined)
				partner.set(sq + off, token);
			f++;
		}
	});
	let area = 0;
	for (const m of reserves.matchAll(/\[([^\]]*)\]/g)) {
		for (const s of m[1].matchAll(/\(([A-Za-z]+)\)|([A-Za-z])/g)) {
			const sym = s[1] || s[2];
			const key = area + ':' + (sym === sym.toUpperCase() ? 'w' : 'b') + ':' + sym.toUpperCase();
			res.set(key, (res.get(key) || 0) + 1);
		}
		area++;
	}
	return { board, res, side };
}

// Every game's positions: main[] the start and the main line, moves[] the
// position after each replayed move in movetext order (the page's nodes).
function positions(file) {
	const fens = run('vchess-convert', ['--keep-broken', '--plies', '-t', 'fen', file]);
	const blocks = [];
	let block = []; // a game's lines end with an empty one (a game with no start: that alone)
	for (const l of fens.split('\n').slice(0, -1)) {
		if (l) {
			block.push(l);
		} else {
			blocks.push(block);
			block = [];
		}
	}
	const lines = run('vchess-convert', ['--keep-broken', '--fen-comments', '-t', 'json-lines', file])
		.split('\n').filter((l) => l);
	return lines.map((l, i) => {
		const moves = [];
		const walk = (list) => {
			for (const m of list) {
				if (m.fen)
					moves.push(m.fen);
				if (m.variation)
					walk(m.variation);
			}
		};
		walk(JSON.parse(l).moves);
		return { main: blocks[i] || [], moves };
	});
}

function compare(shown, want, v) {
	const w = readFen(want, v), out = [];
	// a position string marks promoted pieces ('~') only where a capture puts
	// them into a hand as pawns (vchess-position(5)); where it writes none,
	// the page's promoted marks are checked against -T svg alone
	const bare = !want.includes('~');
	const seen = (sq) => (bare ? (shown.board[sq] || '').replace('~', '') : (shown.board[sq] || ''));
	const keys = new Set([...Object.keys(shown.board), ...w.board.keys()].map(Number));
	for (const sq of keys)
		if (seen(sq) !== (w.board.get(sq) || ''))
			out.push('square ' + sq + ': shown ' + (shown.board[sq] || 'empty') + ', vchess ' + (w.board.get(sq) || 'empty'));
	const rk = new Set([...Object.keys(shown.res), ...w.res.keys()]);
	for (const k of rk)
		if ((shown.res[k] || 0) !== (w.res.get(k) || 0))
			out.push('reserve ' + k + ': shown ' + (shown.res[k] || 0) + ', vchess ' + (w.res.get(k) || 0));
	if (shown.side !== w.side)
		out.push('side to move: shown ' + shown.side + ', vchess ' + w.side);
	return out;
}

// ---- the page ------------------------------------------------------------------------

// What the page's diagram shows: runs in the page.
function readBoard() {
	const svg = document.querySelector('.vc-board svg');
	const out = { board: {}, res: {}, side: '', hash: location.hash, marks: 0, flags: 0 };
	if (!svg)
		return out;
	const number = Number(/^#g(\d+)/.exec(location.hash)[1]);
	const memo = window.vcTestMemo || (window.vcTestMemo = {
		index: JSON.parse(document.getElementById('vc-index').textContent), variants: new Map() });
	if (!memo.variants.has(number))
		memo.variants.set(number, memo.index.variants[JSON.parse(document.getElementById('vc-g' + number).textContent).v]);
	const v = memo.variants.get(number);
	for (const u of svg.querySelectorAll('use.pc')) {
		const sym = v.types[+u.dataset.t][0].toUpperCase();
		const colour = 'wbn'[+u.dataset.c];
		if (u.dataset.res) {
			const key = u.dataset.res.split('.')[1] + ':' + colour + ':' + sym;
			out.res[key] = (out.res[key] || 0) + Number(u.dataset.n);
			continue;
		}
		const token = colour + sym + (u.dataset.promoted ? '~' : '') + (u.dataset.dead ? '!' : '');
		out.board[u.dataset.sq] = token;
		if (u.dataset.sq2 !== undefined)
			out.board[u.dataset.sq2] = token;
		out.flags += !!u.dataset.promoted + !!u.dataset.dead;
	}
	out.marks = svg.querySelectorAll('.promoted, .dead-mark').length;
	const tm = svg.querySelector('.to-move');
	out.side = tm && tm.classList.contains('black') ? 'b' : 'w';
	return out;
}

// Every element of a diagram, its coordinates from the board's corner: runs in
// the page, on the page's own diagram (svgText null) or on vchess-render's.
function primitives(svgText) {
	const r1 = (x) => Math.round(x * 100) / 100;
	let root, bx, by, sym = (u) => null;
	if (svgText) {
		root = new DOMParser().parseFromString(svgText, 'image/svg+xml').documentElement;
		const fr = root.querySelector('rect.frame');
		bx = +fr.getAttribute('x');
		by = +fr.getAttribute('y');
	} else {
		root = document.querySelector('.vc-board svg');
		bx = +root.dataset.bx;
		by = +root.dataset.by;
		sym = (u) => document.getElementById(u.getAttribute('href').slice(1));
	}
	const items = [];
	const nums = (s) => (s.match(/-?[0-9.]+(e-?[0-9]+)?/g) || []).map(Number);
	const rel = (a) => a.map((x, i) => r1(x - (i % 2 ? by : bx)));
	const add = (kind, text, numbers) => items.push({ kind, text, n: numbers });
	const frameParts = (el, dx, dy) => { // squares and coordinates
		for (const s of el.querySelectorAll('rect.square, rect.region, rect.frame'))
			add(s.getAttribute('class'), '', [+s.getAttribute('x') + dx, +s.getAttribute('y') + dy,
				+s.getAttribute('width'), +s.getAttribute('height')].map(r1));
		for (const t of el.querySelectorAll('.coord text'))
			add('coord', t.textContent, [+t.getAttribute('x') + dx, +t.getAttribute('y') + dy].map(r1));
	};
	if (svgText) {
		frameParts(root, -bx, -by);
	} else {
		for (const u of root.querySelectorAll(':scope > g > use, :scope > g > g.board > use'))
			frameParts(sym(u), +u.getAttribute('x') - bx, +u.getAttribute('y') - by);
	}
	for (const c of ['highlight', 'check'])
		for (const e of root.querySelectorAll('rect.' + c))
			add(c, '', rel([+e.getAttribute('x'), +e.getAttribute('y')]));
	const pieceKey = (e, cls, x, y, size) => {
		const g = e.parentElement;
		let ctx = g && g.getAttribute('class') === 'dead' ? 'dead ' : '';
		const rot = e.closest('[transform^="rotate"]');
		let extra = [];
		if (rot) {
			const n = nums(rot.getAttribute('transform'));
			ctx += 'rot ';
			extra = [r1(n[0]), ...rel([n[1], n[2]])];
		}
		const res = e.closest('g.reserve');
		add('piece', ctx + (res ? res.getAttribute('class') + ' ' : '') + cls, [...rel([x, y]), r1(size), ...extra]);
	};
	if (svgText) {
		for (const e of root.querySelectorAll('g.piece')) {
			const n = nums(e.getAttribute('transform'));
			pieceKey(e, e.getAttribute('class'), n[0], n[1], n[2] * 100);
		}
	} else {
		for (const e of root.querySelectorAll('use.pc')) {
			const g = sym(e).querySelector('g.piece');
			pieceKey(e, g.getAttribute('class'), +e.getAttribute('x'), +e.getAttribute('y'),
				Math.min(+e.getAttribute('width'), +e.getAttribute('height')));
		}
	}
	for (const e of root.querySelectorAll('.dead-mark'))
		add('dead-mark', '', rel(nums(e.getAttribute('d'))));
	for (const e of root.querySelectorAll('circle'))
		if (!e.closest('g.piece'))
			add(e.getAttribute('class'), e.textContent, [...rel([+e.getAttribute('cx'), +e.getAttribute('cy')]),
			+e.getAttribute('r')]);
	for (const e of root.querySelectorAll('.seam'))
		add('seam', '', rel(['x1', 'y1', 'x2', 'y2'].map((a) => +e.getAttribute(a))));
	for (const e of root.querySelectorAll('polygon'))
		add(e.getAttribute('class'), '', rel(nums(e.getAttribute('points'))));
	for (const e of root.querySelectorAll('rect.reserve-frame'))
		add('reserve-frame', '', [...rel([+e.getAttribute('x'), +e.getAttribute('y')]),
			+e.getAttribute('width'), +e.getAttribute('height')]);
	for (const e of root.querySelectorAll('text.reserve-label, text.count-text, text.info'))
		add(e.getAttribute('class'), e.textContent, rel([+e.getAttribute('x'), +e.getAttribute('y')]));
	return items;
}

function sameDiagram(a, b) {
	// alike when kind, text and every number agree within 0.06: first by key, then
	// what is left one by one
	const key = (x) => x.kind + '|' + x.text + '|' + x.n.map((v) => v.toFixed(1)).join(' ');
	const pool = new Map();
	for (const y of b)
		(pool.get(key(y)) || pool.set(key(y), []).get(key(y))).push(y);
	const left = [];
	for (const x of a) {
		const same = pool.get(key(x));
		if (same && same.length)
			same.pop();
		else
			left.push(x);
	}
	const rest = [].concat(...pool.values()), used = new Array(rest.length).fill(false), out = [];
	const near = (x, y) => x.n.length === y.n.length && x.n.every((v, i) => Math.abs(v - y.n[i]) <= 0.06);
	for (const x of left) {
		const i = rest.findIndex((y, k) => !used[k] && y.kind === x.kind && y.text === x.text && near(x, y));
		if (i < 0)
			out.push('page only: ' + x.kind + ' "' + x.text + '" ' + x.n.join(' '));
		else
			used[i] = true;
	}
	rest.forEach((y, k) => { if (!used[k]) out.push('vchess-render only: ' + y.kind + ' "' + y.text + '" ' + y.n.join(' ')); });
	return out;
}

// ---- the browser --------------------------------------------------------------------

const browser = await puppeteer.launch({
	executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
	userDataDir: fs.mkdtempSync(path.join(tmp, 'profile-')),
	args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
		'--disable-background-networking', '--disable-component-update', '--disable-sync']
});

async function openPage(file, hash) {
	const page = await browser.newPage();
	const errors = [];
	page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push('console: ' + m.text()); });
	page.on('pageerror', (e) => errors.push('exception: ' + e.message));
	page.on('requestfailed', (r) => errors.push('request failed: ' + r.url()));
	page.on('request', (r) => { if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) errors.push('request: ' + r.url()); });
	await page.setViewport({ width: 1100, height: 900 });
	await page.goto('file://' + file + (hash || ''), { waitUntil: 'load' });
	await page.waitForFunction(() => window.vchessViewer && window.vchessViewer.timing.index);
	return { page, errors };
}

// Shows what a fragment names, as following a link does.
const go = (page, hash) => page.evaluate((h) => new Promise((ok) => {
	if (location.hash === h)
		return ok();
	window.addEventListener('hashchange', () => ok(), { once: true });
	location.hash = h;
}), hash);

// Helpers the page is given once: readBoard, a recorder of what each change of
// the board shows, and the diagram comparison.
async function prepare(page) {
	await page.evaluate((rb, pr, sd) => {
		window.vcTest = { readBoard: eval('(' + rb + ')'), primitives: eval('(' + pr + ')'),
			sameDiagram: eval('(' + sd + ')'), seen: [], record: false };
		new MutationObserver(() => window.vcTest.record && window.vcTest.seen.push(window.vcTest.readBoard()))
			.observe(document.querySelector('.vc-board'), { childList: true });
	}, readBoard.toString(), primitives.toString(), sameDiagram.toString());
}

// A key pressed as a person presses it (through the browser's input, not an
// event made in the page).
async function press(cdp, key) {
	const code = { ArrowRight: 39, ArrowLeft: 37, Home: 36, End: 35 }[key];
	await cdp.send('Input.dispatchKeyEvent', { type: 'rawKeyDown', key, code: key, windowsVirtualKeyCode: code });
	await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key, code: key, windowsVirtualKeyCode: code });
}

// The whole of testGame in one visit to the page, with key events dispatched
// in it (the same handler as a key pressed, without the input pipeline) and
// moves clicked by the DOM: runs in the page.
async function quickGame(number, last) {
	const T = window.vcTest, out = { keys: [] };
	const index = T.index || (T.index = JSON.parse(document.getElementById('vc-index').textContent));
	out.v = index.variants[JSON.parse(document.getElementById('vc-g' + number).textContent).v];
	const h = '#g' + number + 'p0';
	if (location.hash !== h) {
		const changed = new Promise((ok) => window.addEventListener('hashchange', ok, { once: true }));
		location.hash = h;
		await changed;
	}
	out.start = T.readBoard();
	const key = (k) => document.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
	out.seen = [];
	for (let k = 0; k < last; k++) {
		key('ArrowRight');
		out.seen.push(T.readBoard());
	}
	key('ArrowRight'); // past the end: nothing changes
	const after = T.readBoard();
	if (after.hash !== (last ? out.seen[last - 1] : out.start).hash)
		out.seen.push(after);
	for (const k of ['Home', 'End', 'ArrowLeft']) {
		key(k);
		out.keys.push(T.readBoard());
	}
	document.querySelector('.vc-flip').click();
	out.flipped = T.readBoard();
	document.querySelector('.vc-flip').click();
	const moves = Array.from(document.querySelectorAll('.vc-moves [data-n]'));
	out.count = moves.length;
	out.clicked = moves.filter((e, i) => i % 8 === 0 || e.closest('.vc-var')).map((e) => {
		e.click();
		return [+e.dataset.n, T.readBoard()];
	});
	return out;
}

// Steps through a game's main line with the arrow key, then End, Home, a
// flipped board, back, and clicks every move of its movetext.  The keys are
// pressed through the browser's input, but for the steps forward after the
// fourth unless mode is 'real': those are key events dispatched in the page
// (the same handler without the input pipeline, which waits for a frame each
// time and makes a key press cost tens of milliseconds); with mode 'quick',
// everything is done in the page at once (quickGame).
async function testGame(page, cdp, name, row, pos, mode, problems) {
	const number = row[0];
	const where = (s) => name + ' game ' + number + ' ' + s;
	const main = pos.main;
	if (!main.length) {
		problems.push(where('has a board, but vchess gives no position'));
		return 0;
	}
	const last = main.length - 1;
	const q = mode === 'quick' ? await page.evaluate(quickGame, number, last) : null;
	const v = q ? q.v : await page.evaluate((n) => {
		const index = JSON.parse(document.getElementById('vc-index').textContent);
		return index.variants[JSON.parse(document.getElementById('vc-g' + n).textContent).v];
	}, number);
	const check = (shown, want, label, hash) => {
		if (want === undefined)
			return problems.push(where(label + ': vchess gives no position to compare with'));
		for (const p of compare(shown, want, v))
			problems.push(where(label + ': ' + p));
		if (hash && shown.hash !== hash)
			problems.push(where(label + ': fragment ' + shown.hash + ', not ' + hash));
		if (shown.marks !== shown.flags)
			problems.push(where(label + ': ' + shown.flags + ' promoted or dead pieces, ' + shown.marks + ' marks drawn'));
	};
	const now = () => page.evaluate(() => window.vcTest.readBoard());
	const frag = (k) => '#g' + number + 'p' + k;
	if (q)
		return checkQuick(q, main, pos, number, frag, check, where, problems);
	await go(page, frag(0));
	check(await now(), main[0], 'start', frag(0));
	// the first plies (all with real) pressed, the others dispatched
	const pressed = mode === 'real' ? last : Math.min(last, 4);
	await page.evaluate(() => { window.vcTest.seen.length = 0; window.vcTest.record = true; });
	for (let k = 1; k <= pressed; k++)
		await press(cdp, 'ArrowRight');
	await page.evaluate((n) => {
		window.vcTest.record = false;
		for (let k = 0; k < n; k++) {
			document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
			window.vcTest.seen.push(window.vcTest.readBoard());
		}
	}, last - pressed);
	await page.evaluate(() => { window.vcTest.record = true; });
	await press(cdp, 'ArrowRight'); // past the end: nothing changes
	const seen = await page.evaluate(() => { window.vcTest.record = false; return window.vcTest.seen.splice(0); });
	if (seen.length !== last)
		problems.push(where(last + ' steps forward show ' + seen.length + ' boards'));
	seen.forEach((shown, i) => check(shown, main[i + 1], 'ply ' + (i + 1), frag(i + 1)));
	for (const [key, k] of [['Home', 0], ['End', last], ['ArrowLeft', Math.max(last - 1, 0)]]) {
		await press(cdp, key);
		check(await now(), main[k], key, frag(k));
	}
	await page.click('.vc-flip');
	check(await now(), main[Math.max(last - 1, 0)], 'flipped', null);
	await page.click('.vc-flip');
	// the moves of the variations clicked, and some of the main line's
	const clicked = await page.evaluate(() => Array.from(document.querySelectorAll('.vc-moves [data-n]'))
		.map((e, i) => [e, i]).filter(([e, i]) => i % 8 === 0 || e.closest('.vc-var')).map(([e]) => {
			e.click();
			return [+e.dataset.n, window.vcTest.readBoard()];
		}));
	const count = await page.$$eval('.vc-moves [data-n]', (es) => es.length);
	if (count !== pos.moves.length)
		problems.push(where(count + ' moves to click, vchess replays ' + pos.moves.length));
	let variations = 0;
	for (const [k, shown] of clicked) {
		const onMain = /p\d+$/.test(shown.hash);
		variations += !onMain;
		check(shown, pos.moves[k - 1], 'move ' + k, onMain ? null : '#g' + number + 'v' + k);
	}
	return variations;
}

// What quickGame saw, checked as testGame checks what it sees.
function checkQuick(q, main, pos, number, frag, check, where, problems) {
	const last = main.length - 1;
	check(q.start, main[0], 'start', frag(0));
	if (q.seen.length !== last)
		problems.push(where(last + ' steps forward show ' + q.seen.length + ' boards'));
	q.seen.forEach((shown, i) => check(shown, main[i + 1], 'ply ' + (i + 1), frag(i + 1)));
	[0, last, Math.max(last - 1, 0)].forEach((k, i) => check(q.keys[i], main[k], ['Home', 'End', 'ArrowLeft'][i], frag(k)));
	check(q.flipped, main[Math.max(last - 1, 0)], 'flipped', null);
	if (q.count !== pos.moves.length)
		problems.push(where(q.count + ' moves to click, vchess replays ' + pos.moves.length));
	let variations = 0;
	for (const [k, shown] of q.clicked) {
		const onMain = /p\d+$/.test(shown.hash);
		variations += !onMain;
		check(shown, pos.moves[k - 1], 'move ' + k, onMain ? null : '#g' + number + 'v' + k);
	}
	return variations;
}

// The main line's diagrams against vchess-render -T svg's, every element.
async function testSvg(page, name, file, row, problems) {
	const number = row[0];
	const dir = fs.mkdtempSync(path.join(tmp, 'svg-'));
	run('vchess-render', ['-T', 'svg', '--game', String(number), '--all-plies', dir, file]);
	const texts = fs.readdirSync(dir).filter((f) => f.endsWith('.svg')).sort()
		.map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
	fs.rmSync(dir, { recursive: true, force: true });
	// the first eight plies, then every eighth and the last (all with --full)
	const plies = texts.map((t, k) => k).filter((k) => full || k < 8 || k % 8 === 0 || k === texts.length - 1);
	const diffs = await page.evaluate(async (number, texts, plies) => {
		const out = [];
		for (const k of plies) {
			const text = texts[k];
			const h = '#g' + number + 'p' + k;
			if (location.hash !== h) {
				const changed = new Promise((ok) => window.addEventListener('hashchange', ok, { once: true }));
				location.hash = h;
				await changed;
			}
			const d = window.vcTest.sameDiagram(window.vcTest.primitives(null), window.vcTest.primitives(text));
			out.push(...d.slice(0, 4).map((x) => 'ply ' + k + ': ' + x));
		}
		return out;
	}, number, texts, plies);
	for (const d of diffs)
		problems.push(name + ' game ' + number + ' ' + d);
	return plies.length;
}

const T0 = Date.now();
const trace = (s) => process.env.VIEWER_TRACE && console.error((Date.now() - T0) + ' ms ' + s);

async function testArchive(file) {
	const name = path.basename(file);
	trace('start ' + name);
	const html = path.join(tmp, name + '.html');
	run('vchess-render', ['-T', 'html', '-o', html, file]);
	if (!fs.existsSync(html)) {
		report('viewer ' + name, ['vchess-render -T html wrote no page']);
		return;
	}
	const summary = run('vchess-validate', ['--summary', '--quiet', file]);
	const count = Number((/^games (\d+)/m.exec(summary) || [])[1]);
	const pos = positions(file);
	trace('positions');
	const { page, errors } = await openPage(html);
	trace('opened');
	await prepare(page);
	const cdp = await page.createCDPSession();
	const problems = [];
	const rows = await page.evaluate(() => JSON.parse(document.getElementById('vc-index').textContent).games);
	const shownRows = await page.$$eval('.vc-games tbody tr', (t) => t.length);
	if (rows.length !== count || shownRows !== count)
		problems.push('the index lists ' + shownRows + ' rows (' + rows.length + ' in its data), the archive holds ' + count + ' games');
	const games = rows.filter((r) => r[9] >= 0);
	if (games.length !== pos.length)
		problems.push(games.length + ' games in the page, vchess-convert writes ' + pos.length);
	let plies = 0, variations = 0, svgPlies = 0;
	const met = new Set(); // variants whose first game was seen
	for (const [i, row] of games.entries()) {
		if (row[9] !== 1 || !pos[i])
			continue;
		const first = !met.has(row[6]);
		met.add(row[6]);
		plies += pos[i].main.length - 1;
		const mode = full || i === 0 ? 'real' : first ? 'some' : 'quick';
		variations += await testGame(page, cdp, name, row, pos[i], mode, problems);
		trace('game ' + row[0]);
		if (full || first)
			svgPlies += await testSvg(page, name, file, row, problems);
		trace('svg');
	}
	// a fragment opened in a new load
	const withMoves = games.findIndex((r, i) => r[9] === 1 && pos[i] && pos[i].main.length > 2);
	if (withMoves >= 0) {
		const row = games[withMoves], k = Math.floor((pos[withMoves].main.length - 1) / 2);
		const p2 = await openPage(html, '#g' + row[0] + 'p' + k);
		const shown = await p2.page.evaluate(readBoard);
		if (shown.hash !== '#g' + row[0] + 'p' + k)
			problems.push('opened at #g' + row[0] + 'p' + k + ', the fragment became ' + shown.hash);
		const v = await p2.page.evaluate((n) => {
			const index = JSON.parse(document.getElementById('vc-index').textContent);
			return index.variants[JSON.parse(document.getElementById('vc-g' + n).textContent).v];
		}, row[0]);
		for (const p of compare(shown, pos[withMoves].main[k], v))
			problems.push('opened at #g' + row[0] + 'p' + k + ': ' + p);
		errors.push(...p2.errors);
		await p2.page.close();
	}
	// filtering and sorting the index
	if (rows.length > 1) {
		const probe = rows.find((r) => r[3]) || rows[0];
		const word = String(probe[3] || probe[0]).split(/\s+/)[0];
		await page.evaluate(() => { document.querySelector('.vc-index').open = true; });
		await page.type('.vc-filter', word);
		const visible = await page.$$eval('.vc-games tbody tr', (t) => t.filter((r) => !r.hidden).map((r) => r.textContent.toLowerCase()));
		if (!visible.length || visible.some((t) => !t.includes(word.toLowerCase())))
			problems.push('filtering by "' + word + '" shows ' + visible.length + ' rows, some without it');
		await page.$eval('.vc-filter', (e) => { e.value = 'zzqqxx-no-such'; e.dispatchEvent(new Event('input')); });
		if (await page.$$eval('.vc-games tbody tr', (t) => t.filter((r) => !r.hidden).length))
			problems.push('filtering by nonsense leaves rows shown');
		await page.$eval('.vc-filter', (e) => { e.value = ''; e.dispatchEvent(new Event('input')); });
		await page.click('.vc-games th[data-col="7"]');
		const order = await page.$$eval('.vc-games tbody tr', (t) => t.map((r) => Number(r.cells[7].textContent)));
		if (order.some((x, i) => i && x < order[i - 1]))
			problems.push('sorting by plies gives ' + order.join(' '));
	}
	// a phone's width: nothing wider than the screen, the board as wide as it
	await page.setViewport({ width: 390, height: 844 });
	const phone = await page.evaluate(() => ({
		page: document.documentElement.scrollWidth,
		board: document.querySelector('.vc-board svg') ? document.querySelector('.vc-board svg').getBoundingClientRect().width : 0
	}));
	if (phone.page > 390 || phone.board > 390 || (games.some((r) => r[9] === 1) && phone.board < 300))
		problems.push('at 390 pixels wide the page is ' + phone.page + ' wide, its board ' + phone.board.toFixed(0));
	problems.push(...errors);
	await page.close();
	report('viewer ' + name + ' (' + count + ' games, ' + plies + ' plies, ' + variations + ' variation moves, ' +
		svgPlies + ' diagrams against -T svg)', problems);
}

async function measure(file) {
	const html = path.join(tmp, 'lichess.html');
	const t0 = Date.now();
	run('vchess-render', ['-T', 'html', '-o', html, file]);
	const writeMs = Date.now() - t0;
	const size = fs.statSync(html).size;
	// the paint times of three loads, the best kept: one load on a busy machine
	// says more about the machine than about the page
	let page = null, errors = [], t = null;
	for (let i = 0; i < 3; i++) {
		if (page)
			await page.close();
		({ page, errors } = await openPage(html));
		const ti = await page.evaluate(() => new Promise((ok) => {
			const t = { fp: -1, fcp: -1, ready: window.vchessViewer.timing.ready, index: window.vchessViewer.timing.index };
			const done = () => ok(t);
			new PerformanceObserver((list) => {
				for (const e of list.getEntries())
					t[e.name === 'first-paint' ? 'fp' : 'fcp'] = e.startTime;
				if (t.fcp >= 0)
					done();
			}).observe({ type: 'paint', buffered: true });
			setTimeout(done, 30000);
		}));
		if (!t || (ti.fcp >= 0 && ti.fcp < t.fcp))
			t = ti;
	}
	// a long game, stepped through with the arrow key
	const rows = await page.evaluate(() => JSON.parse(document.getElementById('vc-index').textContent).games);
	const long = rows.reduce((a, r) => (r[9] === 1 && r[7] > a[7] ? r : a), rows[0]);
	const stepped = Math.min(long[7], 80);
	const openT0 = Date.now();
	await go(page, '#g' + long[0] + 'p0');
	const openMs = Date.now() - openT0;
	await page.evaluate(() => { window.vchessViewer.steps.length = 0; });
	const wall = [];
	for (let k = 0; k < stepped; k++) {
		const s = Date.now();
		await page.keyboard.press('ArrowRight');
		await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
		wall.push(Date.now() - s);
	}
	const inPage = await page.evaluate(() => window.vchessViewer.steps.slice());
	const avg = (a) => a.reduce((x, y) => x + y, 0) / (a.length || 1);
	const max = (a) => a.reduce((x, y) => Math.max(x, y), 0);
	const line = rows.length + ' games, ' + (t.fcp < 1000 ? '' : '(over a second: a busy machine?) ') + (size / 1e6).toFixed(2) + ' MB (written in ' + writeMs +
		' ms); first paint ' + t.fp.toFixed(0) + ' ms, first contentful paint ' + t.fcp.toFixed(0) +
		' ms (board drawn ' + t.ready.toFixed(0) + ' ms, index ' + t.index.toFixed(0) + ' ms); game ' + long[0] +
		' (' + long[7] + ' plies) opened in ' + openMs + ' ms; ' + stepped + ' steps: a step ' + avg(inPage).toFixed(2) +
		' ms in the page (at most ' + max(inPage).toFixed(2) + '), ' + avg(wall).toFixed(1) + ' ms key to frame';
	const problems = [...errors];
	// the times are measured, not judged (a busy machine is slow): make bench
	// prints this line; the test fails only when the page never paints
	if (!(t.fcp > 0))
		problems.push('no contentful paint within 30 s');
	report('viewer-measure ' + line, problems);
	await page.close();
}

try {
	for (const f of archives)
		await testArchive(f);
	if (lichess)
		await measure(lichess);
} catch (e) {
	console.log('not ok viewer: ' + (e && e.stack ? e.stack.split('\n').slice(0, 4).join('\n    ') : e));
} finally {
	await browser.close();
	fs.rmSync(tmp, { recursive: true, force: true });
}
