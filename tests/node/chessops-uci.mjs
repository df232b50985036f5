// chessops-uci.mjs - the main line of every game of a PGN archive in UCI, as
// chessops (lichess's own rules library) writes it, for a differential
// test of vchess-convert --moves=uci (tests/scripts/convert-uci.sh).
//
//   node chessops-uci.mjs < games.pgn
//
// One line a game: its moves in UCI separated by single spaces (an empty
// line for a game without moves).  chessops keeps castling as the king
// taking its rook; lichess writes that form for Chess960 only and the
// king's two-square move elsewhere, and so does this script.  A move that
// chessops cannot read ends the line with "?SAN".
import { readFileSync } from 'node:fs';
import { parsePgn, startingPosition } from 'chessops/pgn';
import { parseSan } from 'chessops/san';
import { makeUci, kingCastlesTo } from 'chessops/util';
import { castlingSide } from 'chessops/chess';

const games = parsePgn(readFileSync(0, 'utf8'));
const out = [];
for (const game of games) {
	// vchess's names (king-of-the-hill, racing-kings) as chessops knows them
	const variant = (game.headers.get('Variant') || '').toLowerCase().replace(/-/g, ' ');
	if (variant) game.headers.set('Variant', variant);
	const chess960 = variant.includes('960') || variant.includes('fischer');
	const start = startingPosition(game.headers);
	if (start.isErr) {
		out.push('?start');
		continue;
	}
	const pos = start.value;
	const moves = [];
	for (const node of game.moves.mainline()) {
		const move = parseSan(pos, node.san);
		if (!move) {
			moves.push('?' + node.san);
			break;
		}
		let shown = move;
		const side = 'from' in move ? castlingSide(pos, move) : undefined;
		if (side && !chess960) shown = { from: move.from, to: kingCastlesTo(pos.turn, side) };
		moves.push(makeUci(shown));
		pos.play(move);
	}
	out.push(moves.join(' '));
}
process.stdout.write(out.map(l => l + '\n').join(''));
