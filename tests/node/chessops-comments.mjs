// chessops-comments.mjs - the annotations that vchess-convert -t json-lines
// gives each move (clk, emt, eval, mate, depth, arrows, squares) against
// what chessops (lichess's own library) reads from the same comments, for
// tests/scripts/convert-annotations.sh.
//
//   node chessops-comments.mjs < games.jsonl
//
// For every move, chessops's parseComment reads each comment that follows
// it; the last clock, elapsed time and evaluation count, and every arrow
// and square, as vchess-xml(5) says.  Prints "moves N annotated A
// differ D" and, for the first differences, the move and both readings;
// exits 1 when any differs.
import { readFileSync } from 'node:fs';
import { parseComment } from 'chessops/pgn';
import { makeSquare } from 'chessops/util';

const COLORS = { green: 'G', red: 'R', yellow: 'Y', blue: 'B' };

function seconds(clock) {
	if (clock === undefined) return undefined;
	const [h, m, s] = clock.split(':');
	return Number(h) * 3600 + Number(m) * 60 + Number(s);
}

// What chessops reads from the comments after a move, in our terms.
function theirs(after) {
	const r = { marks: [] };
	for (const item of after || []) {
		if (!('comment' in item)) continue;
		const c = parseComment(item.comment);
		if (c.clock !== undefined) r.clk = c.clock;
		if (c.emt !== undefined) r.emt = c.emt;
		if (c.evaluation) r.ev = c.evaluation;
		for (const s of c.shapes) {
			if (!s) continue;
			const col = COLORS[s.color];
			r.marks.push(s.from === s.to ? col + makeSquare(s.from) : col + makeSquare(s.from) + makeSquare(s.to));
		}
	}
	return r;
}

function ours(m) {
	const r = { marks: [] };
	r.clk = seconds(m.clk);
	r.emt = seconds(m.emt);
	if (m.mate !== undefined) r.ev = { mate: m.mate, depth: m.depth };
	else if (m.eval !== undefined) r.ev = { pawns: m.eval, depth: m.depth };
	for (const a of m.arrows || []) r.marks.push(a.color + a.from + a.to);
	for (const s of m.squares || []) r.marks.push(s.color + s.square);
	return r;
}

function same(a, b) {
	const ev = x => (x ? JSON.stringify([x.mate, x.pawns, x.depth || undefined]) : '');
	const close = (x, y) => (x === undefined ? y === undefined : y !== undefined && Math.abs(x - y) < 1e-6);
	// arrows come before squares in ours; chessops keeps the order written
	const marks = x => [...x.marks].sort().join(',');
	return close(a.clk, b.clk) && close(a.emt, b.emt) && ev(a.ev) === ev(b.ev) && marks(a) === marks(b);
}

let moves = 0, annotated = 0, differ = 0;
function walk(list) {
	for (const m of list) {
		if ('variation' in m) {
			walk(m.variation);
			continue;
		}
		if (!('san' in m)) continue;
		moves++;
		const o = ours(m), t = theirs(m.after);
		if (o.clk !== undefined || o.ev || o.marks.length) annotated++;
		if (!same(o, t)) {
			if (++differ <= 5)
				console.log(`  ${m.san}: ours ${JSON.stringify(o)} chessops ${JSON.stringify(t)} ` +
					`after ${JSON.stringify(m.after)}`);
		}
	}
}
for (const line of readFileSync(0, 'utf8').split('\n')) {
	if (line) walk(JSON.parse(line).moves);
}
console.log(`moves ${moves} annotated ${annotated} differ ${differ}`);
process.exit(differ ? 1 : 0);
