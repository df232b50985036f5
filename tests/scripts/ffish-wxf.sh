#!/usr/bin/env bash
# vchess against ffish, Fairy-Stockfish compiled for JavaScript, on the
# notations of the xiangqi and janggi families' own: random legal games
# that ffish plays and writes in WXF (xiangqi, minixiangqi, manchu: H2+3,
# C8=5, R++1, 29+1) or in janggi's numeric notation (the janggi family:
# H08-87, C42x44+), by tests/node/ffish-wxf.mjs, must
#   - validate, and end in the position ffish reaches (the position
#     strings compared whole);
#   - come back token for token from vchess-convert --moves=wxf|janggi;
#   - with one move replaced by a text that names no legal move there,
#     be caught at that ply;
#   - where ffish writes two legal moves alike (Manchu's banner: M8+7 is a
#     horse's step or seven ranks), be refused at that ply as ambiguous.
#
#   FULL=1 plays ten times as many games.
# Needs node and tests/node/node_modules (npm ci in tests/node); skipped
# with the reason when either is missing.
set -u
# Compared with ffish in make check only: under the sanitizers
# (make san sets VCHESS_SAN=1) it skips, the C code it drives running there
# in t_genval, t_diff, t_bb and the goldens (random games of every variant).
if [ "${VCHESS_SAN:-0}" = 1 ]; then
	echo "skip ffish-wxf: compared with ffish in make check; the same C code runs under the sanitizers in the unit tests"
	exit 0
fi
node_dir=tests/node
games=5 plies=160
if [ "${FULL:-0}" = 1 ]; then
	games=50
fi
runs="xiangqi:wxf minixiangqi:wxf manchu:wxf janggi:janggi janggitraditional:janggi janggimodern:janggi janggicasual:janggi"
if ! command -v node >/dev/null 2>&1; then
	for r in $runs; do echo "skip ffish-wxf-${r%%:*} # node is not installed"; done
	exit 0
fi
if [ ! -d "$node_dir/node_modules/ffish" ]; then
	for r in $runs; do echo "skip ffish-wxf-${r%%:*} # no $node_dir/node_modules: npm ci in $node_dir"; done
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
seed=20261202
# the moves of a game file, one a line: no tags, move numbers or results
tokens() {
	grep -v '^\[' "$1" | tr ' ' '\n' | grep -v -e '^[0-9]*\.$' -e '^\*$' -e '^1-0$' -e '^0-1$' \
		-e '^1/2-1/2$' | grep .
}
for r in $runs; do
	v=${r%%:*} n=${r#*:} d=$tmp/$v name=ffish-wxf-$v
	mkdir -p "$d"
	if ! node "$node_dir/ffish-wxf.mjs" "$v" "$n" "$games" "$plies" "$seed" "$d" 2>"$d/err"; then
		echo "not ok $name: ffish-wxf.mjs failed"
		sed 's/^/    /' "$d/err"
		continue
	fi
	sum=$(vchess-validate --summary "$d/games.pgn" 2>"$d/verr")
	valid=$(printf '%s\n' "$sum" | sed -n 's/^valid //p')
	plycount=$(printf '%s\n' "$sum" | sed -n 's/^plies //p')
	if [ "$valid" != "$games" ] || [ -s "$d/verr" ]; then
		echo "not ok $name: ${valid:-0} of $games games that ffish writes in $n validate"
		head -n 5 "$d/verr" | sed 's/^/    /'
		continue
	fi
	vchess-convert -t fen "$d/games.pgn" >"$d/got" 2>"$d/cerr"
	if ! cmp -s "$d/final" "$d/got"; then
		echo "not ok $name: the games end elsewhere than in ffish"
		diff "$d/final" "$d/got" | head -n 5 | sed 's/^/    /'
		continue
	fi
	vchess-convert --moves="$n" "$d/games.pgn" >"$d/written.pgn" 2>>"$d/cerr"
	tokens "$d/games.pgn" >"$d/w0"
	tokens "$d/written.pgn" >"$d/w1"
	if ! cmp -s "$d/w0" "$d/w1" || [ -s "$d/cerr" ]; then
		echo "not ok $name: vchess-convert --moves=$n does not write what ffish writes"
		{ diff "$d/w0" "$d/w1" | head -n 5; head -n 3 "$d/cerr"; } | sed 's/^/    /'
		continue
	fi
	vchess-validate "$d/broken.pgn" 2>&1 |
		sed -n 's/.*error: game [0-9]* ([^)]*), ply \([0-9]*\) .*/\1/p' >"$d/got-plies"
	if ! cmp -s "$d/got-plies" "$d/plies" || [ ! -s "$d/plies" ]; then
		echo "not ok $name: the broken games are not caught at their plies"
		diff "$d/plies" "$d/got-plies" | head -n 5 | sed 's/^/    /'
		continue
	fi
	vchess-validate "$d/ambiguous.pgn" 2>&1 |
		sed -n "s/.*error: game [0-9]* ([^)]*), ply \\([0-9]*\\) .*: the WXF move '[^']*' fits .*/\\1/p" \
			>"$d/got-amb"
	if ! cmp -s "$d/got-amb" "$d/ambiguous-plies"; then
		echo "not ok $name: the moves ffish writes alike are not refused as ambiguous"
		diff "$d/ambiguous-plies" "$d/got-amb" | head -n 5 | sed 's/^/    /'
		continue
	fi
	echo "ok $name: $games games of ffish in $n ($plycount plies) validate, end in its positions and are written back alike; $(wc -l <"$d/plies") broken, $(wc -l <"$d/ambiguous-plies") ambiguous ones caught at their ply"
done
