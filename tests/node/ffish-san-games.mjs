// Random legal games written in SAN by ffish (Fairy-Stockfish compiled to
// WebAssembly), for tests/scripts/ffish-san.sh.
//
//   node ffish-san-games.mjs DIR GAMES PLIES SEED VARIANT...
//
// Writes, for each of the engine's variants named, DIR/VARIANT.pgn: GAMES
// games of at most PLIES plies, one move a line, each with a Variant tag
// naming the engine's variant and ffish's result when the game ended; and
// DIR/VARIANT-broken.pgn: the same games cut after one move, at a ply
// chosen by the seed, replaced by a move that is illegal there however it
// is written (a move the same side could make two plies before, onto a
// square that now holds one of its own pieces), each game's first line a
// comment "{broken at ply N}".  Two drops that ffish writes alike (kyoto
// shogi's G@c3 for a lance and for a knight dropped gold side up) are
// written in coordinates (+L@c3).  A game where no such move is found is left
// out of the broken file.  In a variant whose start has only drops
// (must-drop: placement, sittuyin), the move put in is instead a move on
// the board while the hand still holds a piece that can be dropped.  In a
// variant with gating (some first move of
// the start is written with '/', as Nf3/H), the move put in is instead a
// legal move made to gate a piece of the hand where it may not: from a
// square whose piece has moved, or a piece the hand does not hold.
import { writeFileSync } from 'node:fs';
import { ffish, sanOf, seeded } from './ffish-common.mjs';

const [dir, ngames, nplies, seedArg, ...variants] = process.argv.slice(2);
const rnd = seeded(seedArg);

// The colour of the piece on a square ("e4", "j10") of a FEN: 'w', 'b' or ''.
function colourAt(fen, sq) {
	const f = sq.charCodeAt(0) - 97, r = Number(sq.slice(1));
	const rows = fen.split(' ')[0].split('/');
	const row = rows[rows.length - r];
	let x = 0;
	for (let i = 0; row && i < row.length; i++) {
		const c = row[i];
		if (c >= '0' && c <= '9') {
			let n = Number(c);
			if (row[i + 1] >= '0' && row[i + 1] <= '9')
				n = n * 10 + Number(row[++i]);
			x += n;
		} else if (c === '+' || c === '~' || c === '*') {
			continue;
		} else {
			if (x === f)
				return c === c.toUpperCase() ? 'w' : 'b';
			x++;
		}
	}
	return '';
}

// The pieces of the side to move's hand in a FEN ("[EHeh]"), but pawns.
function handOf(fen) {
	const m = fen.match(/\[([^\]]*)\]/);
	const white = fen.split(' ')[1] === 'w';
	return m ? [...m[1]].filter((c) => (c === c.toUpperCase()) === white && !/[pP]/.test(c)) : [];
}

// Gating: a legal move of ply k written with a gate it may not make.
function gateTry(variant, fen, legal, k) {
	const hand = handOf(fen);
	const b = new ffish.Board(variant, fen);
	let found = null;
	for (const u of legal) {
		if (!/^[a-z]\d+[a-z]\d+$/.test(u))
			continue;
		const san = b.sanMove(u);
		if (san.startsWith('O-') || !/^[A-Z]/.test(san))
			continue;
		const letters = hand.length ? hand : ['H'];
		const x = letters[rnd(letters.length)];
		if (legal.includes(u + x.toLowerCase()))
			continue;
		found = [k, san.replace(/[+#]$/, '') + '/' + x.toUpperCase() + (san.match(/[+#]$/) || [''])[0]];
		break;
	}
	b.delete();
	return found;
}

function game(variant, g) {
	const b = new ffish.Board(variant);
	const gating = b.legalMoves().split(' ').some((m) => m && b.sanMove(m).includes('/'));
	const sans = [], ucis = [], fens = [];
	let result = '*';
	for (let ply = 0; ply < Number(nplies); ply++) {
		if (b.isGameOver())
			break;
		const moves = b.legalMoves().split(' ').filter((m) => m);
		if (!moves.length)
			break;
		fens.push(b.fen());
		ucis.push(moves);
		const m = moves[rnd(moves.length)];
		sans.push(sanOf(b, m, moves));
		b.push(m);
	}
	if (b.isGameOver())
		result = b.result();
	b.delete();
	const tags = (res) =>
		`[Event "ffish random game ${g}"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "${g}"]\n` +
		`[White "?"]\n[Black "?"]\n[Result "${res}"]\n[Variant "${variant}"]\n\n`;
	const moves = (list) =>
		list.map((s, i) => (i % 2 === 0 ? `${i / 2 + 1}. ` : '') + s + '\n').join('');
	const good = tags(result) + moves(sans) + result + '\n\n';
	const tries = [];
	// Must-drop (placement, sittuyin: the start's moves are all drops): a
	// move on the board, legal once the hand is emptied, played while a
	// piece of the hand can still be dropped.
	const mustDrop = ucis.length && ucis[0].every((u) => u.includes('@'));
	for (let k = 1; mustDrop && k < sans.length; k++) {
		if (!ucis[k].every((u) => u.includes('@')))
			break;
		const bare = new ffish.Board(variant, fens[k].replace(/\[[^\]]*\]/, '[]'));
		const board = bare.legalMoves().split(' ').filter((m) => m && !m.includes('@'));
		if (board.length)
			tries.push([k, bare.sanMove(board[rnd(board.length)])]);
		bare.delete();
	}
	for (let k = 2; gating && k < sans.length; k++) {
		const t = gateTry(variant, fens[k], ucis[k], k);
		if (t)
			tries.push(t);
	}
	for (let k = 2; !tries.length && k < sans.length; k++) {
		const side = fens[k].split(' ')[1];
		for (const u of ucis[k - 2]) {
			const to = u.match(/^[a-z]\d+([a-z]\d+)/);
			if (to && !ucis[k].includes(u) && colourAt(fens[k], to[1]) === side) {
				const old = new ffish.Board(variant, fens[k - 2]);
				tries.push([k, old.sanMove(u)]);
				old.delete();
				break;
			}
		}
	}
	if (!tries.length)
		return [good, ''];
	const [k, s] = tries[rnd(tries.length)];
	const cut = sans.slice(0, k);
	cut.push(s);
	return [good, tags('*') + `{broken at ply ${k + 1}}\n` + moves(cut) + '*\n\n'];
}

for (const v of variants) {
	let good = '', bad = '';
	for (let g = 1; g <= Number(ngames); g++) {
		const [a, b] = game(v, g);
		good += a;
		bad += b;
	}
	writeFileSync(`${dir}/${v}.pgn`, good);
	writeFileSync(`${dir}/${v}-broken.pgn`, bad);
}
