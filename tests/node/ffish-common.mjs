// What the ffish tests share: ffish (Fairy-Stockfish compiled to
// WebAssembly) loaded and ready, and a seeded xorshift64 generator, so that
// one seed gives the same games.
delete globalThis.fetch; // ffish would try to fetch its WebAssembly
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
export const ffish = require('ffish');
await new Promise((done) => {
	if (ffish.calledRun && ffish.Board) done();
	else ffish.onRuntimeInitialized = done;
});

// rnd(n): 0 to n-1, from the seed on
export function seeded(seedArg) {
	let seed = BigInt(seedArg) || 1n;
	return (n) => {
		seed ^= (seed << 13n) & 0xffffffffffffffffn;
		seed ^= seed >> 7n;
		seed ^= (seed << 17n) & 0xffffffffffffffffn;
		return Number(seed % BigInt(n));
	};
}

// ffish's SAN of a legal move; a drop that ffish writes as it writes
// another drop to the same square (kyoto shogi's G@c3 for a lance and a
// knight dropped gold side up) in coordinates (+L@c3), which tell them apart.
export function sanOf(b, m, moves) {
	const san = b.sanMove(m);
	if (!m.includes('@'))
		return san;
	const to = m.slice(m.indexOf('@'));
	const twin = moves.some((u) => u !== m && u.endsWith(to) && u.includes('@') && b.sanMove(u) === san);
	return twin ? m : san;
}
