// viewer.js - the script of the web pages vchess writes (vchess-render -T html,
// vc_render_html in lib/draw/html.c): an index of the page's games, sortable and
// filterable, and a viewer that steps through a game.
//
// The page holds its data in <script type="application/json"> elements: vc-index
// (the title, the geometry of the diagrams, the variants, a row a game) and vc-gN
// (game number N, read when it is first shown).  A position is a row of cells, one a
// square then one a reserve count; a game is its start and a list of nodes, each a
// move with the cells it changed from its parent's position (see html_game.c).  This
// script knows no rules: it replays those changes and draws each diagram as
// lib/draw/svg.c does (vc_render_svg), with the pieces as <use> of the symbols the
// page defines once.  The functions that draw say which of svg.c's they follow.
//
// The address's fragment names what is shown: #gN (game N), #gNpK (its main line
// after ply K), #gNvI (after its I-th move in movetext order, in a variation or not).
(function () {
	'use strict';

	const index = JSON.parse(document.getElementById('vc-index').textContent);
	const G = index.geom; // sq, pad, rl (reserve label), rs (slot), rt (step), rg (gap)
	const SQ = G.sq;
	// [number, White, Black, Event, Date, Result, variant, plies, problem, board: 1 yes, 0 no,
	// -1 not a game]
	const games = index.games;
	const byNumber = new Map();
	games.forEach((row, i) => byNumber.set(row[0], i));

	const view = { game: null, node: 0, flip: !!index.flip, scroll: 0 };
	const cache = new Map();
	window.vchessViewer = { timing: { start: performance.now() }, steps: [] };

	// ---- helpers -------------------------------------------------------------------

	function esc(s) {
		return String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
	}
	function g5(x) { // as %.5g writes numbers
		return String(+(+x).toPrecision(5));
	}
	function el(tag, cls, text) {
		const e = document.createElement(tag);
		if (cls)
			e.className = cls;
		if (text !== undefined)
			e.textContent = text;
		return e;
	}

	// ---- a game: its positions, replayed from the data --------------------------------

	function loadGame(number) {
		if (cache.has(number))
			return cache.get(number);
		const script = document.getElementById('vc-g' + number);
		const row = games[byNumber.get(number)];
		if (!script || !row)
			return null;
		const d = JSON.parse(script.textContent);
		const v = d.v >= 0 ? index.variants[d.v] : null;
		const g = { number: number, row: row, data: d, v: v, nodes: [], main: [] };
		if (v) {
			const own = !!d.b;
			const root = {
				parent: -1, cells: Int32Array.from(own ? d.b : v.b), side: own ? d.s : v.s,
				fm: own ? d.n : v.n, x: own ? d.x : v.x, c: (own ? d.c : v.c) || [],
				q: (own ? d.q : v.q) || [0, 0],
				k: d.k || [], hl: [], san: '', last: false, next: -1, ply: 0
			};
			g.nodes.push(root);
			const nsq = v.files * v.ranks;
			d.m.forEach((m, i) => {
				const o = m[2] || {};
				const k = i + 1, p = g.nodes[k - (o.p || 1)];
				const cells = Int32Array.from(p.cells), diff = m[1], hl = [];
				for (let j = 0; j < diff.length; j += 2) {
					cells[diff[j]] = diff[j + 1];
					if (diff[j] < nsq)
						hl.push(diff[j]);
				}
				const n = {
					parent: k - (o.p || 1), cells: cells, side: o.w !== undefined ? o.w : 1 - p.side,
					fm: o.n !== undefined ? o.n : p.fm + p.side, x: o.x !== undefined ? o.x : -1,
					q: o.q || p.q,
					c: o.c || [], k: o.k || [], hl: o.h || hl, san: m[0], last: true, by: o.by,
					num: p.fm, black: p.side === 1, variation: !!o.v, next: -1, ply: -1
				};
				if (!o.v && p.next < 0)
					p.next = k;
				g.nodes.push(n);
			});
			for (let k = 0; k >= 0; k = g.nodes[k].next) {
				g.nodes[k].ply = g.main.length;
				g.main.push(k);
			}
		}
		cache.set(number, g);
		return g;
	}

	// ---- the diagram, as svg.c draws it ----------------------------------------------

	function frame(g) {
		const L = (g.data.L || g.v.L)[view.flip ? 1 : 0];
		const nres = g.v.res.length;
		return {
			w: L[0], h: L[1], bx: L[2], by: L[3], ry: [L[4], L[5]], iy: L[6], per: L[7],
			rows: (s, a) => L[8 + s * nres + a]
		};
	}

	function squareXY(v, F, sq) { // svg.c square_xy
		const f = sq % v.files, r = Math.floor(sq / v.files);
		const dc = view.flip ? v.files - 1 - f : f, dr = view.flip ? r : v.ranks - 1 - r;
		return [F.bx + dc * SQ, F.by + dr * SQ];
	}

	function useSym(id, x, y, w, h, attrs) {
		return '<use class="pc" href="#' + id + '" x="' + g5(x) + '" y="' + g5(y) + '" width="' +
			g5(w) + '" height="' + g5(h) + '"' + attrs + '/>';
	}

	const LINK = [[0, 0], [0, 1], [1, 1], [1, 0], [1, -1], [0, -1], [-1, -1], [-1, 0], [-1, 1]];

	function pieceAt(g, F, cells, sq) { // svg.c put_piece_at
		const v = g.v, c = cells[sq], code = c & 255, m = c >> 8;
		if (!c || (m & 4))
			return '';
		const t = (code >> 2) - 1, col = code & 3, dir = m >> 3;
		const [x, y] = squareXY(v, F, sq);
		const vi = g.data.v;
		let s = '', attrs = ' data-sq="' + sq + '" data-t="' + t + '" data-c="' + col + '"';
		if (m & 1)
			attrs += ' data-dead="1"';
		if (m & 2)
			attrs += ' data-promoted="1"';
		if (m & 1)
			s += '<g class="dead">';
		if (dir) {
			const other = sq + LINK[dir][0] + LINK[dir][1] * v.files;
			const [x2, y2] = squareXY(v, F, other);
			attrs += ' data-sq2="' + other + '"';
			if (y2 === y) {
				s += useSym('vc-h' + vi + '-' + t + '-' + col, Math.min(x, x2), y, 2 * SQ, SQ, attrs);
			} else if (x2 === x) {
				s += useSym('vc-v' + vi + '-' + t + '-' + col, x, Math.min(y, y2), SQ, 2 * SQ, attrs);
			} else {
				const cx = (x + x2) / 2 + SQ / 2, cy = (y + y2) / 2 + SQ / 2;
				const ang = Math.atan2(y2 - y, x2 - x) * 180 / Math.PI;
				const len = SQ * (Math.SQRT2 + 0.72), th = 0.72 * SQ;
				s += '<g transform="rotate(' + g5(ang) + ' ' + g5(cx) + ' ' + g5(cy) + ')">' +
					useSym('vc-d' + vi + '-' + t + '-' + col, cx - len / 2, cy - th / 2, len, th, attrs) +
					'</g>';
			}
		} else {
			s += useSym('vc-p' + vi + '-' + t + '-' + col, x, y, SQ, SQ, attrs);
		}
		if (m & 1)
			s += '</g><path class="dead-mark" d="M' + g5(x + 9) + ' ' + g5(y + 9) + 'L' + g5(x + SQ - 9) +
				' ' + g5(y + SQ - 9) + 'M' + g5(x + SQ - 9) + ' ' + g5(y + 9) + 'L' + g5(x + 9) + ' ' +
				g5(y + SQ - 9) + '"/>';
		if (m & 2)
			s += '<circle class="promoted" cx="' + g5(x + SQ - 7) + '" cy="' + g5(y + 7) + '" r="4.5"/>';
		return s + '\n';
	}

	const COLOURS = { R: 'red', Y: 'yellow', B: 'blue' };

	function marks(v, F, list) { // svg.c put_marks
		let s = '';
		const nsq = v.files * v.ranks;
		for (const [from, to, colour] of list) {
			if (from < 0 || to < 0 || from >= nsq || to >= nsq)
				continue;
			const cls = COLOURS[colour] || 'green';
			let [x1, y1] = squareXY(v, F, from), [x2, y2] = squareXY(v, F, to);
			x1 += SQ / 2, y1 += SQ / 2, x2 += SQ / 2, y2 += SQ / 2;
			if (from === to) {
				s += '<circle class="mark ' + cls + '" cx="' + g5(x1) + '" cy="' + g5(y1) + '" r="' +
					g5(0.44 * SQ) + '"/>\n';
				continue;
			}
			const dx = x2 - x1, dy = y2 - y1, len = Math.sqrt(dx * dx + dy * dy);
			const ux = dx / len, uy = dy / len, nx = -uy, ny = ux;
			const sw = 0.16 * SQ / 2, hw = 0.46 * SQ / 2, hl = 0.42 * SQ;
			const tx = x2 - ux * 0.1 * SQ, ty = y2 - uy * 0.1 * SQ;
			const bx = tx - ux * hl, by = ty - uy * hl;
			const pts = [[x1 + nx * sw, y1 + ny * sw], [bx + nx * sw, by + ny * sw],
				[bx + nx * hw, by + ny * hw], [tx, ty], [bx - nx * hw, by - ny * hw],
				[bx - nx * sw, by - ny * sw], [x1 - nx * sw, y1 - ny * sw]];
			s += '<polygon class="arrow ' + cls + '" points="' +
				pts.map((p) => p[0].toFixed(1) + ',' + p[1].toFixed(1)).join(' ') + '"/>\n';
		}
		return s;
	}

	function reserves(g, F, cells) { // svg.c put_reserves
		const v = g.v, nsq = v.files * v.ranks, nt = v.types.length, bw = v.files * SQ;
		let s = '';
		for (let side = 0; side < 2; side++) {
			let y = F.ry[side];
			v.res.forEach(([name, cls, enemy], a) => {
				const h = G.rl + F.rows(side, a) * G.rs, pc = enemy ? 1 - side : side;
				let pieces = '', k = 0;
				for (let t = 0; t < nt; t++) {
					const n = cells[nsq + (side * v.res.length + a) * nt + t];
					if (!n)
						continue;
					const sx = F.bx + 4 + (k % F.per) * G.rt, sy = y + G.rl + Math.floor(k / F.per) * G.rs;
					const ps = G.rs - 4;
					k++;
					pieces += useSym('vc-p' + g.data.v + '-' + t + '-' + pc, sx, sy, ps, ps,
						' data-res="' + side + '.' + a + '" data-t="' + t + '" data-c="' + pc + '" data-n="' + n + '"') +
						'<circle class="count" cx="' + g5(sx + ps + 2) + '" cy="' + g5(sy + ps - 8) + '" r="7.5"/>' +
						'<text class="count-text" x="' + g5(sx + ps + 2) + '" y="' + g5(sy + ps - 4) + '">' + n +
						'</text>\n';
				}
				s += '<g class="reserve ' + (side ? 'black' : 'white') + ' reserve-' + cls + '">' +
					'<rect class="reserve-frame" x="' + g5(F.bx) + '" y="' + g5(y) + '" width="' + g5(bw) +
					'" height="' + g5(h) + '" rx="4"/><text class="reserve-label" x="' + g5(F.bx + 5) +
					'" y="' + g5(y + G.rl - 5) + '">' + (side ? 'Black ' : 'White ') + esc(name) +
					(k ? '' : ': empty') + '</text>\n' + pieces + '</g>\n';
				y += h + G.rg;
			});
		}
		return s;
	}

	function diagram(g, n) { // svg.c put_diagram
		const v = g.v, F = frame(g), vi = g.data.v, fl = view.flip ? 1 : 0;
		let s = '<svg xmlns="http://www.w3.org/2000/svg" class="vchess" viewBox="0 0 ' + g5(F.w) + ' ' +
			g5(F.h) + '" data-bx="' + g5(F.bx) + '" data-by="' + g5(F.by) + '" role="img" aria-label="' +
			esc(v.title + ', ' + caption(g, n)) + '">\n<rect class="background" width="' + g5(F.w) +
			'" height="' + g5(F.h) + '"/>\n<g class="diagram" transform="translate(0 0)">\n';
		if (v.res.length)
			s += reserves(g, F, n.cells);
		s += '<g class="board">\n<use href="#vc-sq' + vi + '-' + fl + '" x="' + g5(F.bx) + '" y="' +
			g5(F.by) + '"/>\n';
		if (n.last)
			for (const sq of n.hl) {
				const [x, y] = squareXY(v, F, sq);
				s += '<rect class="highlight" x="' + g5(x) + '" y="' + g5(y) + '" width="' + g5(SQ) +
					'" height="' + g5(SQ) + '"/>\n';
			}
		for (const sq of n.c) {
			const [x, y] = squareXY(v, F, sq);
			s += '<rect class="check" x="' + g5(x) + '" y="' + g5(y) + '" width="' + g5(SQ) + '" height="' +
				g5(SQ) + '" fill="url(#vc-check)"/>\n';
		}
		s += '<g class="pieces">\n';
		for (let sq = 0; sq < v.files * v.ranks; sq++)
			s += pieceAt(g, F, n.cells, sq);
		s += '</g>\n';
		if (n.x >= 0 && v.files >= 2) { // svg.c put_seam
			const half = Math.floor(v.files / 2);
			const x = F.bx + (view.flip ? v.files - half : half) * SQ;
			s += '<line class="seam" x1="' + g5(x) + '" y1="' + g5(F.by - 3) + '" x2="' + g5(x) + '" y2="' +
				g5(F.by + v.ranks * SQ + 3) + '"/>\n';
		}
		s += marks(v, F, n.k) + '</g>\n<use href="#vc-co' + vi + '-' + fl + '" x="' + g5(F.bx) + '" y="' +
			g5(F.by) + '"/>\n';
		// svg.c put_to_move
		const top = view.flip ? 0 : 1;
		const cx = F.bx + v.files * SQ + 0.27 * SQ;
		const cy = n.side === top ? F.by + 0.27 * SQ : F.by + v.ranks * SQ - 0.27 * SQ;
		s += '<circle class="to-move ' + (n.side ? 'black' : 'white') + '" cx="' + g5(cx) + '" cy="' + g5(cy) +
			'" r="' + g5(0.15 * SQ) + '"><title>' + (n.side ? 'Black' : 'White') + ' to move</title></circle>\n';
		if (F.iy) { // svg.c put_info
			let info = '';
			if (n.x >= 0)
				info = n.x + ' ' + (n.x === 1 ? 'ply' : 'plies') + ' to the next swap' +
					(n.last && n.x === v.swap ? '; the halves have just swapped' : '');
			if (v.checks)
				info += (n.x >= 0 ? '; ' : '') + 'checks to give: White ' + (v.checks - n.q[0]) +
					', Black ' + (v.checks - n.q[1]);
			s += '<text class="info" x="' + g5(F.bx) + '" y="' + g5(F.iy) + '">' + info + '</text>\n';
		}
		return s + '</g>\n</svg>';
	}

	// ---- the page -----------------------------------------------------------------------

	const NAGS = { 1: '!', 2: '?', 3: '!!', 4: '??', 5: '!?', 6: '?!', 10: '=', 14: '+=', 15: '=+', 16: '+/-',
		17: '-/+', 18: '+-', 19: '-+' };
	const COLUMNS = ['#', 'White', 'Black', 'Event', 'Date', 'Result', 'Variant', 'Plies', 'Problem'];
	const ui = {};

	function moveLabel(n) {
		return n.num + (n.black ? '...' : '.') + (n.black ? '' : ' ') + n.san;
	}
	function caption(g, n) {
		return n.parent < 0 ? 'start' : moveLabel(n);
	}

	function build() {
		const app = el('div', 'vc-app');
		const head = el('header', 'vc-head');
		head.append(el('h1', null, index.title), el('span', 'vc-count', games.length + (games.length === 1 ? ' game' : ' games')));
		const idx = el('details', 'vc-index');
		idx.open = games.length > 1;
		const sum = el('summary', null, 'Games');
		ui.filter = el('input', 'vc-filter');
		ui.filter.type = 'search';
		ui.filter.placeholder = 'Filter: words from any column';
		ui.filter.setAttribute('aria-label', 'Filter the games');
		const wrap = el('div', 'vc-table-wrap');
		const table = el('table', 'vc-games');
		table.innerHTML = '<colgroup>' + COLUMNS.map((c, i) => '<col class="vc-c' + i + '">').join('') +
			'</colgroup><thead><tr>' + COLUMNS.map((c, i) => '<th data-col="' + i + '" tabindex="0">' + c +
			'</th>').join('') + '</tr></thead><tbody></tbody>';
		wrap.append(table);
		idx.append(sum, ui.filter, wrap);
		ui.index = idx;
		ui.tbody = table.tBodies[0];
		ui.rows = [];

		const main = el('main', 'vc-game');
		const left = el('div', 'vc-board-pane'), right = el('div', 'vc-info-pane');
		ui.title = el('h2', 'vc-title');
		ui.sub = el('div', 'vc-sub');
		ui.board = el('div', 'vc-board');
		const ctl = el('div', 'vc-controls');
		for (const [go, label, title] of [['first', '\u00ab', 'Start (Home)'], ['prev', '\u2039', 'Back (\u2190)'],
			['next', '\u203a', 'Forward (\u2192)'], ['last', '\u00bb', 'End of the line (End)'],
			['flip', 'Flip', 'Turn the board']]) {
			const b = el('button', 'vc-' + go, label);
			b.type = 'button';
			b.title = title;
			b.dataset.go = go;
			ctl.append(b);
		}
		ui.status = el('div', 'vc-status');
		left.append(ui.title, ui.sub, ui.board, ctl, ui.status);
		ui.problems = el('ul', 'vc-problems');
		ui.moves = el('div', 'vc-moves');
		ui.tags = el('table', 'vc-tags');
		right.append(ui.problems, ui.moves, ui.tags);
		main.append(left, right);
		app.append(head, idx, main);
		document.body.append(app);

		ui.filter.addEventListener('input', filter);
		table.tHead.addEventListener('click', (e) => { const th = e.target.closest('th'); if (th) sortBy(+th.dataset.col); });
		table.tHead.addEventListener('keydown', (e) => {
			const th = e.target.closest('th');
			if (th && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); sortBy(+th.dataset.col); }
		});
		ui.tbody.addEventListener('click', (e) => {
			const tr = e.target.closest('tr');
			if (tr)
				navigate(+tr.dataset.g, 0, 'p');
		});
		ctl.addEventListener('click', (e) => { const b = e.target.closest('button'); if (b) step(b.dataset.go); });
		ui.moves.addEventListener('click', (e) => {
			const m = e.target.closest('[data-n]');
			if (m && view.game)
				show(view.game, +m.dataset.n);
		});
		document.addEventListener('keydown', keys);
		window.addEventListener('hashchange', route);
	}

	// The index's rows, made after the first game is drawn, so that a page of
	// thousands of games shows its board first.
	function fillIndex() {
		let h = '';
		for (const r of games)
			h += '<tr data-g="' + r[0] + '"' + (r[8] ? ' class="vc-broken"' : '') + '>' +
				r.slice(0, 8).map((c) => '<td>' + esc(c) + '</td>').join('') +
				'<td title="' + esc(r[8]) + '">' + esc(r[8]) + '</td></tr>';
		ui.tbody.innerHTML = h;
		ui.rows = Array.from(ui.tbody.rows);
		ui.rows.forEach((tr, i) => { tr.vcText = games[i].join(' ').toLowerCase(); tr.vcRow = games[i]; });
		if (view.game)
			select(view.game);
		if (ui.filter.value)
			filter();
		window.vchessViewer.timing.index = performance.now();
	}

	function select(g) {
		for (const tr of ui.tbody.querySelectorAll('.vc-sel'))
			tr.classList.remove('vc-sel');
		const tr = ui.tbody.querySelector('tr[data-g="' + g.number + '"]');
		if (tr)
			tr.classList.add('vc-sel');
	}

	let sorted = { col: 0, dir: 1 };
	function sortBy(col) {
		sorted = { col: col, dir: sorted.col === col ? -sorted.dir : 1 };
		const numeric = col === 0 || col === 7;
		ui.rows.sort((a, b) => {
			const x = a.vcRow[col], y = b.vcRow[col];
			const c = numeric ? x - y : String(x).localeCompare(String(y));
			return (c || a.vcRow[0] - b.vcRow[0]) * sorted.dir;
		});
		const frag = document.createDocumentFragment();
		ui.rows.forEach((tr) => frag.append(tr));
		ui.tbody.append(frag);
		ui.tbody.parentNode.tHead.querySelectorAll('th').forEach((th) => {
			th.removeAttribute('aria-sort');
			if (+th.dataset.col === col)
				th.setAttribute('aria-sort', sorted.dir > 0 ? 'ascending' : 'descending');
		});
	}

	function filter() {
		const words = ui.filter.value.toLowerCase().split(/\s+/).filter((w) => w);
		for (const tr of ui.rows)
			tr.hidden = !words.every((w) => tr.vcText.includes(w));
	}

	function fragment(g, k) {
		const n = g.nodes[k];
		return '#g' + g.number + (!n || n.ply >= 0 ? 'p' + (n ? n.ply : 0) : 'v' + k);
	}

	function route() {
		const m = /^#g(\d+)(?:([pv])(\d+))?$/.exec(location.hash);
		if (m && byNumber.has(+m[1]))
			navigate(+m[1], m[3] ? +m[3] : 0, m[2] || 'p');
		else if (games.length)
			navigate(games[0][0], 0, 'p');
	}

	function navigate(number, k, kind) {
		const g = loadGame(number);
		if (!g)
			return;
		if (view.game !== g)
			open(g);
		let node = 0;
		if (g.nodes.length)
			node = kind === 'v' ? (k < g.nodes.length ? k : 0) : g.main[Math.min(k, g.main.length - 1)];
		show(g, node);
	}

	function open(g) {
		view.game = g;
		const r = g.row;
		ui.title.textContent = (r[1] || '?') + ' \u2013 ' + (r[2] || '?');
		ui.sub.textContent = [r[3], r[4], r[5], g.v ? g.v.title : r[6]].filter((x) => x && x !== '?').join(' \u00b7 ');
		select(g);
		ui.tags.innerHTML = '<caption>Tags</caption>' + g.data.tags.map(([k, v]) => '<tr><th>' + esc(k) + '</th><td>' +
			esc(v) + '</td></tr>').join('');
		ui.problems.innerHTML = g.data.e.map((p) => '<li>' + esc(p) + '</li>').join('');
		if (!g.v)
			ui.problems.insertAdjacentHTML('afterbegin', '<li>no board: ' +
				(r[6] ? 'the variant \u2018' + esc(r[6]) + '\u2019 is not known or its start does not read' : 'this is not a game') + '</li>');
		ui.moves.replaceChildren(movetext(g));
		if (!g.v) {
			ui.board.innerHTML = '';
			ui.status.textContent = '';
		}
	}

	// The movetext: moves (numbered where a reader needs the number), comments,
	// NAGs, variations, moves that did not replay, the result.
	function movetext(g) {
		const root = el('div', 'vc-line');
		const stack = [];
		let box = root, needNum = true;
		for (const t of g.data.t) {
			if (typeof t === 'number') {
				const n = g.nodes[t];
				const m = el('span', 'vc-move');
				m.dataset.n = t;
				if (!n.black || needNum)
					m.append(el('span', 'vc-num', n.num + (n.black ? '...' : '.')));
				m.append(document.createTextNode(n.san));
				box.append(m, ' ');
				if (n.by)
					box.append(el('span', 'vc-by', n.by), ' ');
				needNum = false;
				continue;
			}
			needNum = true;
			if (t === '(') {
				stack.push(box);
				const v = el(stack.length === 1 ? 'div' : 'span', 'vc-var');
				box.append(v);
				box = v;
			} else if (t === ')') {
				box = stack.pop() || root;
				box.append(' ');
			} else if (t[0] === 'c') {
				box.append(el('span', 'vc-comment', t[1]), ' ');
			} else if (t[0] === 'a') {
				const c = el('span', 'vc-comment');
				c.append(el('b', null, t[1] + ':'), ' ' + t[2]);
				box.append(c, ' ');
			} else if (t[0] === 'd') {
				box.append(el('span', 'vc-event' + (t[2] ? ' vc-ignored' : ''), t[1]), ' ');
			} else if (t[0] === 'g') {
				const s = el('span', 'vc-nag', NAGS[t[1]] || '$' + t[1]);
				s.title = '$' + t[1];
				box.lastChild && box.lastChild.nodeType === 3 && box.lastChild.remove();
				box.append(s, ' ');
				needNum = false;
			} else if (t[0] === 'm') {
				const s = el('span', 'vc-bad', t[1]);
				if (t[2])
					s.title = t[2];
				box.append(s, ' ');
			} else if (t[0] === 'r') {
				box.append(el('span', 'vc-result', t[1]));
			}
		}
		return root;
	}

	function show(g, k) {
		const t0 = performance.now();
		view.node = k;
		const n = g.nodes[k];
		history.replaceState(null, '', fragment(g, k));
		if (!n)
			return;
		ui.board.innerHTML = diagram(g, n);
		ui.status.textContent = n.parent < 0 ? 'Start' : (n.ply >= 0 ? 'Ply ' + n.ply + ': ' : 'Variation: ') + moveLabel(n);
		const old = ui.moves.querySelector('.vc-cur');
		if (old)
			old.classList.remove('vc-cur');
		const cur = ui.moves.querySelector('[data-n="' + k + '"]');
		if (cur)
			cur.classList.add('vc-cur');
		// the move kept in sight at the next frame: asking for the layout now
		// would make every step wait for one
		if (!view.scroll)
			view.scroll = requestAnimationFrame(scrollToCurrent);
		const steps = window.vchessViewer.steps;
		if (steps.length < 10000)
			steps.push(performance.now() - t0);
	}

	function scrollToCurrent() {
		view.scroll = 0;
		const box = ui.moves, cur = box.querySelector('.vc-cur');
		if (!cur || box.scrollHeight <= box.clientHeight)
			return;
		const top = cur.offsetTop;
		if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - cur.offsetHeight)
			box.scrollTop = top - box.clientHeight / 2;
	}

	function step(go) {
		const g = view.game;
		if (go === 'flip') {
			view.flip = !view.flip;
			if (g && g.v)
				show(g, view.node);
			return;
		}
		if (!g || !g.v)
			return;
		const n = g.nodes[view.node];
		let k = view.node;
		if (go === 'first')
			k = 0;
		else if (go === 'prev')
			k = n.parent >= 0 ? n.parent : k;
		else if (go === 'next')
			k = n.next >= 0 ? n.next : k;
		else if (go === 'last')
			while (g.nodes[k].next >= 0)
				k = g.nodes[k].next;
		if (k !== view.node)
			show(g, k);
	}

	function keys(e) {
		if (e.altKey || e.ctrlKey || e.metaKey || e.target === ui.filter)
			return;
		const go = { ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last' }[e.key];
		if (go) {
			e.preventDefault();
			step(go);
		}
	}

	build();
	route();
	window.vchessViewer.timing.ready = performance.now();
	setTimeout(fillIndex);
})();
