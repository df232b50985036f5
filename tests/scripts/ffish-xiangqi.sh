#!/usr/bin/env bash
# vchess against ffish, Fairy-Stockfish compiled for JavaScript, on the
# xiangqi and janggi families: games played at random by ffish
# (tests/node/ffish-xiangqi.mjs), written in the SAN it writes, must all
# validate, in --strict mode too; and the same games with one move replaced
# by one that is not legal there must each be caught at that ply.
#
#   FULL=1 plays ten times as many games.
# Needs node and tests/node/node_modules (npm ci in tests/node); skipped
# with the reason when either is missing.
set -u
# Compared with ffish in make check only: under the sanitizers
# (make san sets VCHESS_SAN=1) it skips, the C code it drives running there
# in t_genval, t_diff, t_bb and the goldens (random games of every variant).
if [ "${VCHESS_SAN:-0}" = 1 ]; then
	echo "skip ffish-xiangqi: compared with ffish in make check; the same C code runs under the sanitizers in the unit tests"
	exit 0
fi
node_dir=tests/node
games=6 plies=160
if [ "${FULL:-0}" = 1 ]; then
	games=60
fi
variants="xiangqi minixiangqi manchu janggi janggitraditional janggimodern janggicasual"
if ! command -v node >/dev/null 2>&1; then
	for v in $variants; do echo "skip ffish-$v # node is not installed"; done
	exit 0
fi
if [ ! -d "$node_dir/node_modules/ffish" ]; then
	for v in $variants; do echo "skip ffish-$v # no $node_dir/node_modules: npm ci in $node_dir"; done
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
seed=20261201
for v in $variants; do
	d=$tmp/$v
	mkdir -p "$d"
	if ! node "$node_dir/ffish-xiangqi.mjs" "$v" "$games" "$plies" "$seed" "$d" 2>"$d/err"; then
		echo "not ok ffish-$v: ffish-xiangqi.mjs failed"
		sed 's/^/    /' "$d/err"
		continue
	fi
	# every game valid, in strict mode
	sum=$(vchess-validate --strict --summary "$d/games.pgn" 2>"$d/verr")
	valid=$(printf '%s\n' "$sum" | sed -n 's/^valid //p')
	plycount=$(printf '%s\n' "$sum" | sed -n 's/^plies //p')
	if [ "$valid" != "$games" ] || [ -s "$d/verr" ]; then
		echo "not ok ffish-$v: ${valid:-0} of $games games by ffish validate"
		head -n 5 "$d/verr" | sed 's/^/    /'
		continue
	fi
	# every broken twin caught at its ply
	vchess-validate "$d/broken.pgn" 2>&1 |
		sed -n 's/.*error: game [0-9]* ([^)]*), ply \([0-9]*\) .*/\1/p' >"$d/got"
	if ! cmp -s "$d/got" "$d/plies" || [ ! -s "$d/plies" ]; then
		echo "not ok ffish-$v: the broken games are not caught at their plies"
		diff "$d/plies" "$d/got" | head -n 5 | sed 's/^/    /'
		continue
	fi
	echo "ok ffish-$v: $games games of ffish ($plycount plies) validate, $(wc -l <"$d/plies") broken ones caught at their ply"
done
