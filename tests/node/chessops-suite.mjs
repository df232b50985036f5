// chessops-suite.mjs - perft suites written by chessops, lichess's own rules
// library, for a differential test of vchess (tests/scripts/chessops-diff.sh).
//
//   node chessops-suite.mjs RULES POSITIONS SEED DEPTH
//
// RULES is a chessops rules name (chess, antichess, kingofthehill, 3check,
// atomic, horde, racingkings, crazyhouse).  The positions are reached by
// random play from the variant's start, seeded, between 0 and 120 plies
// (a game that ends sooner gives its last position one time in four, the
// one before it otherwise); for each, the suite
// gives the node counts that chessops finds at depths 1 to DEPTH, in the
// format of the python-chess suites that vchess-perft --suite reads:
//
//   id chessops-RULES-SEED-K
//   epd FEN
//   perft 1 N
//   ...
import { defaultPosition } from 'chessops/variant';
import { makeFen } from 'chessops/fen';
import { squareRank } from 'chessops/util';

const [rules, count, seedArg, depthArg] = process.argv.slice(2);
if (!rules || !count) {
	console.error('usage: node chessops-suite.mjs RULES POSITIONS SEED DEPTH');
	process.exit(2);
}
const positions = Number(count), depth = Number(depthArg || 2);
let seed = BigInt(seedArg || 1) || 1n;

// xorshift64, the same generator as the C tests use
function rnd(n) {
	seed ^= (seed << 13n) & 0xffffffffffffffffn;
	seed ^= seed >> 7n;
	seed ^= (seed << 17n) & 0xffffffffffffffffn;
	return Number(seed % BigInt(n));
}

const ROLES = ['queen', 'rook', 'bishop', 'knight', 'king'];

// Every legal move of pos: moves to each destination, promotions expanded
// (to the roles the variant allows), drops.
function legalMoves(pos) {
	const out = [];
	const ctx = pos.ctx();
	for (const [from, dests] of pos.allDests(ctx)) {
		const piece = pos.board.get(from);
		for (const to of dests) {
			const last = piece.color === 'white' ? 7 : 0;
			if (piece.role === 'pawn' && squareRank(to) === last) {
				for (const promotion of ROLES) {
					const m = { from, to, promotion };
					if (pos.isLegal(m, ctx)) out.push(m);
				}
			} else out.push({ from, to });
		}
	}
	if (pos.pockets) {
		const dests = pos.dropDests(ctx);
		for (const role of ['pawn', 'knight', 'bishop', 'rook', 'queen'])
			if (pos.pockets[pos.turn][role] > 0)
				for (const to of dests) {
					const m = { role, to };
					if (pos.isLegal(m, ctx)) out.push(m);
				}
	}
	return out;
}

function perft(pos, d) {
	const moves = legalMoves(pos);
	if (d === 1) return moves.length;
	let n = 0;
	for (const m of moves) {
		const child = pos.clone();
		child.play(m);
		n += perft(child, d - 1);
	}
	return n;
}

const lines = [];
for (let k = 0; k < positions; k++) {
	let pos = defaultPosition(rules), before = pos;
	const plies = rnd(121);
	for (let i = 0; i < plies; i++) {
		const moves = legalMoves(pos);
		if (!moves.length) break;
		before = pos.clone();
		pos.play(moves[rnd(moves.length)]);
	}
	// a game over is kept one time in four; else the position before it
	if (!legalMoves(pos).length && rnd(4)) pos = before;
	lines.push(`id chessops-${rules}-${seedArg}-${k + 1}`);
	lines.push(`epd ${makeFen(pos.toSetup())}`);
	for (let d = 1; d <= depth; d++) lines.push(`perft ${d} ${perft(pos, d)}`);
	lines.push('');
}
process.stdout.write(lines.join('\n'));
