// Random games played by Fairy-Stockfish compiled for JavaScript (the npm
// package ffish), written in the SAN it writes, for tests/scripts/ffish-xiangqi.sh:
//   node ffish-xiangqi.mjs VARIANT GAMES PLIES SEED OUTDIR
// writes OUTDIR/games.pgn (each game as played, its result when ffish says
// the game is over), OUTDIR/broken.pgn (the same games, each with one move
// replaced by a move that is not legal there) and OUTDIR/plies (the ply of
// each broken game's illegal move, one a line).
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';

const [variant, games, plies, seed, outdir] = process.argv.slice(2);
const require = createRequire(import.meta.url);
delete globalThis.fetch; // ffish's loader would fetch its wasm over the network
const ffish = require('ffish');

let state = BigInt(seed) || 1n;
function rand(n) { // xorshift64, the same games for the same seed
	state ^= (state << 13n) & 0xffffffffffffffffn;
	state ^= state >> 7n;
	state ^= (state << 17n) & 0xffffffffffffffffn;
	return Number(state % BigInt(n));
}

// a move as vchess reads it leniently: marks and a capture's 'x' do not count
const bare = (s) => s.replace(/[+#]+$/, '').replace('x', '');

ffish.onRuntimeInitialized = () => {
	const good = [], bad = [], where = [];
	for (let g = 0; g < Number(games); g++) {
		const b = new ffish.Board(variant);
		const sans = [];
		const legalSans = [];
		for (let i = 0; i < Number(plies) && !b.isGameOver(); i++) {
			const ms = b.legalMoves().split(' ').filter((x) => x);
			if (!ms.length)
				break;
			legalSans.push(new Set(ms.map((m) => bare(b.sanMove(m)))));
			const m = ms[rand(ms.length)];
			sans.push(b.sanMove(m));
			b.push(m);
		}
		const result = b.isGameOver() ? b.result() : '*';
		b.delete();
		const text = (moves) => {
			let t = '';
			moves.forEach((s, i) => { t += (i % 2 === 0 ? `${i / 2 + 1}. ` : '') + s + ' '; });
			return t;
		};
		const tags = `[Event "ffish random game ${g + 1}"]\n[Variant "${variant}"]\n`;
		good.push(`${tags}[Result "${result}"]\n\n${text(sans)}${result}\n`);
		// one move replaced by one of the next position's (the other side's),
		// chosen among those that are no legal move where it stands
		let k = -1, sub = null;
		for (let i = Math.floor(sans.length / 2); i + 1 < sans.length && k < 0; i++)
			for (const s of legalSans[i + 1])
				if (!legalSans[i].has(s)) {
					k = i;
					sub = s;
					break;
				}
		if (k >= 0) {
			const broken = sans.slice(0, k).concat([sub], sans.slice(k + 1));
			bad.push(`${tags}[Result "*"]\n\n${text(broken)}*\n`);
			where.push(String(k + 1));
		}
	}
	writeFileSync(`${outdir}/games.pgn`, good.join('\n'));
	writeFileSync(`${outdir}/broken.pgn`, bad.join('\n'));
	writeFileSync(`${outdir}/plies`, where.join('\n') + (where.length ? '\n' : ''));
};
