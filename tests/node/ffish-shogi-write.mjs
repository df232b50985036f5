// Random legal games of the shogi family as ffish (Fairy-Stockfish
// compiled to WebAssembly) writes them, for tests/scripts/ffish-shogi-write.sh:
// the same games in the engine's SAN and in each of shogi's Western
// notations, so that vchess-convert --moves=shogi, shogi-number and hosking
// can be compared with ffish's text move for move.
//
//   node ffish-shogi-write.mjs DIR GAMES PLIES SEED VARIANT...
//
// Writes DIR/VARIANT-N.pgn for N in san, hodges (Notation.SHOGI_HODGES),
// number (SHOGI_HODGES_NUMBER) and hosking (SHOGI_HOSKING): GAMES games
// of at most PLIES plies, one move a line after its number, with a Variant
// tag.  ffish stops with an error on a variant it does not know.  A drop
// ffish's SAN writes like another (kyoto shogi's G@c3 for a lance and a
// knight dropped gold side up) is written in coordinates (+L@c3).
import { writeFileSync } from 'node:fs';
import { ffish, sanOf, seeded } from './ffish-common.mjs';

const [dir, ngames, nplies, seedArg, ...variants] = process.argv.slice(2);
const rnd = seeded(seedArg);
const styles = {
	san: undefined,
	hodges: ffish.Notation.SHOGI_HODGES,
	number: ffish.Notation.SHOGI_HODGES_NUMBER,
	hosking: ffish.Notation.SHOGI_HOSKING,
};

function game(variant, g) {
	const b = new ffish.Board(variant);
	const moves = {};
	for (const n in styles) moves[n] = [];
	for (let ply = 0; ply < Number(nplies) && !b.isGameOver(); ply++) {
		const legal = b.legalMoves().split(' ').filter((m) => m);
		if (!legal.length) break;
		const m = legal[rnd(legal.length)];
		for (const n in styles)
			moves[n].push(styles[n] === undefined ? sanOf(b, m, legal) : b.sanMove(m, styles[n]));
		b.push(m);
	}
	b.delete();
	const out = {};
	for (const n in styles)
		out[n] =
			`[Event "ffish random game ${g}"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "${g}"]\n` +
			`[White "?"]\n[Black "?"]\n[Result "*"]\n[Variant "${variant}"]\n\n` +
			moves[n].map((s, i) => (i % 2 === 0 ? `${i / 2 + 1}. ` : '') + s + '\n').join('') +
			'*\n\n';
	return out;
}

for (const v of variants) {
	const files = {};
	for (let g = 1; g <= Number(ngames); g++) {
		const o = game(v, g);
		for (const n in o) files[n] = (files[n] || '') + o[n];
	}
	for (const n in files) writeFileSync(`${dir}/${v}-${n}.pgn`, files[n]);
}
