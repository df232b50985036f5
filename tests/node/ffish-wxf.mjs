// Random legal games written by ffish (Fairy-Stockfish compiled to
// WebAssembly) in a variant's own notation, for tests/scripts/ffish-wxf.sh:
//
//   node ffish-wxf.mjs VARIANT NOTATION GAMES PLIES SEED OUTDIR
//
// NOTATION is wxf (xiangqi's WXF: H2+3, C8=5, R++1) or janggi (H08-87).
// Writes OUTDIR/games.pgn (each game as played, ffish's result when it
// ended), OUTDIR/final (ffish's position string after each game, one a
// line), OUTDIR/broken.pgn and OUTDIR/plies (the games with one move
// replaced by a text that names no legal move there, and that ply, one a
// line), and OUTDIR/ambiguous.pgn and OUTDIR/ambiguous-plies: where ffish
// writes two legal moves alike (WXF's tandem marks do not say which file),
// the game cut there with that text, which must be refused as ambiguous.
// A move whose text ffish writes for another legal move too is never
// played: every game's text says its moves.
import { writeFileSync } from 'node:fs';
import { ffish, seeded } from './ffish-common.mjs';

const [variant, notation, ngames, nplies, seedArg, outdir] = process.argv.slice(2);
const rnd = seeded(seedArg);
const N = notation === 'janggi' ? ffish.Notation.JANGGI : ffish.Notation.XIANGQI_WXF;

// a move as vchess reads it leniently: check marks and the capture's 'x' do not count
const bare = (s) => s.replace(/[+#]+$/, '').replace('x', '-');

// WXF letters as position strings write them
const fenChar = { E: 'b', H: 'n' };

// How many pieces of the letter's type has the side to move on the file
// (counted from its right) of a position string?
function onFile(fen, letter, wfile) {
	const rows = fen.split(' ')[0].replace(/\[.*\]/, '').split('/');
	const white = fen.split(' ')[1] === 'w';
	const want = (fenChar[letter] || letter.toLowerCase());
	let count = 0;
	for (const row of rows) {
		const cells = [];
		for (let i = 0; i < row.length; i++) {
			const c = row[i];
			if (c >= '0' && c <= '9') {
				let n = Number(c);
				if (row[i + 1] >= '0' && row[i + 1] <= '9')
					n = n * 10 + Number(row[++i]);
				for (let k = 0; k < n; k++)
					cells.push('');
			} else if (c !== '+' && c !== '~') {
				cells.push(c);
			}
		}
		const f = white ? cells.length - wfile : wfile - 1;
		const c = cells[f] || '';
		if (c && c.toLowerCase() === want && (c === c.toUpperCase()) === white)
			count++;
	}
	return count;
}

// Is text, not written for any legal move here, sure to name none however
// leniently it is read?  A janggi move names its squares; a WXF move in the
// plain form (letter and file) names the only piece of its kind on that
// file, or none.
function surelyIllegal(fen, text, texts) {
	if (texts.has(bare(text)))
		return false;
	if (notation === 'janggi')
		return true;
	const m = text.match(/^([A-Z])([1-9])[-+=][1-9]$/);
	return m !== null && onFile(fen, m[1], Number(m[2])) <= 1;
}

const movetext = (moves) => {
	let t = '';
	moves.forEach((s, i) => { t += (i % 2 === 0 ? `${i / 2 + 1}. ` : '') + s + ' '; });
	return t;
};

const good = [], finals = [], bad = [], where = [], amb = [], ambWhere = [];
for (let g = 0; g < Number(ngames); g++) {
	const b = new ffish.Board(variant);
	const texts = [], fens = [], sets = [];
	let ambiguous = null;
	for (let i = 0; i < Number(nplies) && !b.isGameOver(); i++) {
		const ms = b.legalMoves().split(' ').filter((x) => x);
		if (!ms.length)
			break;
		const written = ms.map((m) => b.sanMove(m, N));
		const count = new Map();
		for (const w of written)
			count.set(bare(w), (count.get(bare(w)) || 0) + 1);
		const clear = ms.filter((m, k) => count.get(bare(written[k])) === 1);
		if (!ambiguous) {
			const k = written.findIndex((w) => count.get(bare(w)) > 1);
			if (k >= 0)
				ambiguous = [i, written[k]];
		}
		if (!clear.length)
			break;
		fens.push(b.fen());
		sets.push(new Set(written.map(bare)));
		const m = clear[rnd(clear.length)];
		texts.push(b.sanMove(m, N));
		b.push(m);
	}
	const result = b.isGameOver() ? b.result() : '*';
	finals.push(b.fen());
	b.delete();
	const tags = `[Event "ffish ${notation} game ${g + 1}"]\n[Variant "${variant}"]\n`;
	good.push(`${tags}[Result "${result}"]\n\n${movetext(texts)}${result}\n`);
	// one move replaced by a text of a later position that names no legal
	// move where it is put
	let k = -1, sub = null;
	for (let i = Math.floor(texts.length / 2); i < texts.length && k < 0; i++)
		for (let j = i + 1; j < Math.min(texts.length, i + 6) && k < 0; j++)
			if (surelyIllegal(fens[i], texts[j], sets[i])) {
				k = i;
				sub = texts[j];
			}
	if (k >= 0) {
		bad.push(`${tags}[Result "*"]\n\n${movetext(texts.slice(0, k).concat([sub]))}*\n`);
		where.push(String(k + 1));
	}
	if (ambiguous) {
		const [i, text] = ambiguous;
		amb.push(`${tags}[Result "*"]\n\n${movetext(texts.slice(0, i).concat([text]))}*\n`);
		ambWhere.push(String(i + 1));
	}
}
const lines = (a) => a.join('\n') + (a.length ? '\n' : '');
writeFileSync(`${outdir}/games.pgn`, good.join('\n'));
writeFileSync(`${outdir}/final`, lines(finals));
writeFileSync(`${outdir}/broken.pgn`, bad.join('\n'));
writeFileSync(`${outdir}/plies`, lines(where));
writeFileSync(`${outdir}/ambiguous.pgn`, amb.join('\n'));
writeFileSync(`${outdir}/ambiguous-plies`, lines(ambWhere));
