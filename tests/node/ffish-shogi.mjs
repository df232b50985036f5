// Random legal shogi-family games written by ffish (Fairy-Stockfish
// compiled to WebAssembly) in the engine's SAN and in shogi's Western
// notation (Hodges), for tests/scripts/ffish-shogi.sh.
//
//   node ffish-shogi.mjs DIR GAMES PLIES SEED VARIANT...
//
// Writes, for each variant and each notation N (san, hodges),
// DIR/VARIANT-N.pgn: GAMES games of at most PLIES plies, with a Variant
// tag and ffish's result when the game ended; and DIR/VARIANT-N-broken.pgn:
// games cut at a ply where a pawn drop breaks one of the drop rules, that
// drop written last, the game's first line a comment "{broken at ply N by
// RULE}", RULE one of nifu (a second unpromoted pawn on a file), last-rank
// (a pawn dropped where it could never move) and mate (a pawn drop that
// checkmates, which ffish 11.1 allows in minishogi and so plays).  Two
// drops that ffish's SAN writes alike (kyoto shogi's G@c3 for a lance and
// for a knight dropped gold side up) are written in coordinates (+L@c3).
import { writeFileSync } from 'node:fs';
import { ffish, sanOf, seeded } from './ffish-common.mjs';

const [dir, ngames, nplies, seedArg, ...variants] = process.argv.slice(2);
const rnd = seeded(seedArg);

// The board of a FEN as rows of cells from the top ('' empty, '+p', 'P').
function cells(fen) {
	return fen.split(/[ [ ]/)[0].split('/').map((row) => {
		const out = [];
		for (let i = 0; i < row.length; i++) {
			const c = row[i];
			if (c >= '0' && c <= '9') {
				let n = Number(c);
				if (row[i + 1] >= '0' && row[i + 1] <= '9') n = n * 10 + Number(row[++i]);
				for (let k = 0; k < n; k++) out.push('');
			} else if (c === '+') {
				out.push('+' + row[++i]);
			} else if (c !== '~') {
				out.push(c);
			}
		}
		return out;
	});
}

// A pawn drop on file f, rank r (0-based, rank from White's side), written
// in SAN ("P@e4") or Hodges ("P*5f").
function dropText(notation, files, ranks, f, r) {
	if (notation === 'san') return `P@${String.fromCharCode(97 + f)}${r + 1}`;
	return `P*${files - f}${String.fromCharCode(97 + ranks - 1 - r)}`;
}

// The broken drops of a position: [rule, file, rank] for an empty square.
function brokenDrops(fen, board) {
	const side = fen.split(' ')[1];
	const hand = (fen.match(/\[([^\]]*)\]/) || ['', ''])[1];
	const pawn = side === 'w' ? 'P' : 'p';
	if (!hand.includes(pawn)) return [];
	const rows = cells(fen), ranks = rows.length, files = rows[0].length, out = [];
	for (let f = 0; f < files; f++) {
		let own = false;
		for (let r = 0; r < ranks; r++) own ||= rows[ranks - 1 - r][f] === pawn;
		for (let r = 0; r < ranks; r++) {
			if (rows[ranks - 1 - r][f] !== '') continue;
			const last = side === 'w' ? r === ranks - 1 : r === 0;
			if (last) out.push(['last-rank', f, r]);
			else if (own) out.push(['nifu', f, r]);
		}
	}
	// a legal pawn drop that mates (ffish allows it where the engine does)
	for (const u of board.legalMoves().split(' ')) {
		if (!u.startsWith('P@')) continue;
		board.push(u);
		const mate = board.isGameOver() && board.isCheck();
		board.pop();
		if (mate) {
			const f = u.charCodeAt(2) - 97, r = Number(u.slice(3)) - 1;
			out.push(['mate', f, r]);
		}
	}
	return out;
}

function game(variant, g) {
	const b = new ffish.Board(variant);
	const moves = { san: [], hodges: [] }, broken = [];
	let result = '*';
	for (let ply = 0; ply < Number(nplies); ply++) {
		if (b.isGameOver()) break;
		const legal = b.legalMoves().split(' ').filter((m) => m);
		if (!legal.length) break;
		const fen = b.fen();
		for (const d of brokenDrops(fen, b)) broken.push([ply, ...d]);
		const rows = cells(fen);
		// a pawn-drop mate where there is one: the rule's case, played
		let m = legal[rnd(legal.length)];
		moves.san.push(sanOf(b, m, legal));
		moves.hodges.push(b.sanMove(m, ffish.Notation.SHOGI_HODGES));
		broken.dims = [rows[0].length, rows.length];
		b.push(m);
	}
	if (b.isGameOver()) result = b.result();
	b.delete();
	const tags = (res) =>
		`[Event "ffish random game ${g}"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "${g}"]\n` +
		`[White "?"]\n[Black "?"]\n[Result "${res}"]\n[Variant "${variant}"]\n\n`;
	const text = (list) =>
		list.map((s, i) => (i % 2 === 0 ? `${i / 2 + 1}. ` : '') + s + '\n').join('');
	const out = {};
	for (const n of ['san', 'hodges']) {
		out[n] = [tags(result) + text(moves[n]) + result + '\n\n', ''];
		// one broken game per rule found, each at a ply chosen by the seed
		for (const rule of ['nifu', 'last-rank', 'mate']) {
			const cand = broken.filter((x) => x[1] === rule);
			if (!cand.length) continue;
			const [ply, , f, r] = cand[rnd(cand.length)];
			const cut = moves[n].slice(0, ply);
			cut.push(dropText(n, broken.dims[0], broken.dims[1], f, r));
			out[n][1] += tags('*') + `{broken at ply ${ply + 1} by ${rule}}\n` + text(cut) + '*\n\n';
		}
	}
	return out;
}

for (const v of variants) {
	const files = { san: ['', ''], hodges: ['', ''] };
	for (let g = 1; g <= Number(ngames); g++) {
		const o = game(v, g);
		for (const n of ['san', 'hodges']) {
			files[n][0] += o[n][0];
			files[n][1] += o[n][1];
		}
	}
	for (const n of ['san', 'hodges']) {
		writeFileSync(`${dir}/${v}-${n}.pgn`, files[n][0]);
		writeFileSync(`${dir}/${v}-${n}-broken.pgn`, files[n][1]);
	}
}
