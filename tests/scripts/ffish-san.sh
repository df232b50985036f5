#!/usr/bin/env bash
# vchess reads the SAN that Fairy-Stockfish writes: random legal games in
# each of the engine's variants that vchess knows, written by ffish (the
# engine compiled to WebAssembly, tests/node/ffish-san-games.mjs) with the
# engine's own variant name in the Variant tag, must validate without a
# problem, ffish's results included; and the same games with one move
# replaced by an illegal one must be caught at that ply and nowhere before
# (in seirawan and shouse a gate that may not be made: from a square whose
# piece has moved, or of a piece the hand does not hold; in placement and
# sittuyin a move on the board while a piece of the hand can be dropped).
# Kyoto and micro shogi are here, where no drop rule can be broken; the rest
# of the shogi family is in ffish-shogi.sh.  And vchess writes those games
# in ffish's SAN, move for move (ffish-VARIANT-write; tests/scripts/
# san-same.awk): the same origins named, the same promotions and gates, the
# same marks but vchess's '#' for every move that ends a game with a winner.
# Not in kyoto and micro shogi, where ffish writes a drop by the face the
# piece shows (G@c3 for a lance or a knight), vchess by the piece (+L@c3).
#
#   FULL=1 plays five times as many games.
# Needs node and tests/node/node_modules (npm ci in tests/node, as .ci/run
# does); skipped with the reason when either is missing.
set -u
# Compared with ffish in make check only: under the sanitizers
# (make san sets VCHESS_SAN=1) it skips, the C code it drives running there
# in t_genval, t_diff, t_bb and the goldens (random games of every variant).
if [ "${VCHESS_SAN:-0}" = 1 ]; then
	echo "skip ffish-san: compared with ffish in make check; the same C code runs under the sanitizers in the unit tests"
	exit 0
fi
node_dir=tests/node
games=2 plies=80
if [ "${FULL:-0}" = 1 ]; then
	games=10
fi
variants="5check ai-wok almost amazon asean breakthrough cambodian capablanca caparandom centaur chancellor
chigorin clobber clobber10 codrus courier embassy extinction fairy gardner gothic grand
hoppelpoppel janus jesonmor karouk kinglet knightmate losalamos losers makpong makruk modern newzealand
nocastle normal shako shatar shatranj suicide threekings capahouse chessgi pocketknight seirawan shouse
kyotoshogi micro placement sittuyin"
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
if ! node "$node_dir/ffish-san-games.mjs" "$tmp" "$games" "$plies" 20261201 $variants 2>"$tmp/err"; then
	for v in $variants; do echo "not ok ffish-$v: ffish-san-games.mjs failed"; done
	tail -n 3 "$tmp/err" | cut -c1-200 | sed 's/^/    /'
	exit 0
fi
for v in $variants; do
	if ! vchess-validate --summary "$tmp/$v.pgn" >"$tmp/out" 2>&1; then
		echo "not ok ffish-$v: ffish's games do not validate"
		grep error "$tmp/out" | head -n 5 | sed 's/^/    /'
		continue
	fi
	plies_read=$(sed -n 's/^plies //p' "$tmp/out")
	case $v in
	kyotoshogi | micro) ;;
	*)
		vchess-convert --no-tags --no-comments "$tmp/$v.pgn" >"$tmp/written" 2>&1
		awk -v test="ffish-$v-write" -f tests/scripts/san-same.awk "$tmp/$v.pgn" "$tmp/written"
		;;
	esac
	# each broken game: its first problem is an error at the ply its
	# comment names
	want=$(grep -c '^{broken at ply' "$tmp/$v-broken.pgn")
	vchess-validate "$tmp/$v-broken.pgn" >"$tmp/bad" 2>&1
	got=0 g=0
	while IFS= read -r n; do
		g=$((g + 1))
		first=$(grep -m 1 "game $g (" "$tmp/bad")
		case $first in
		*": error: game $g "*", ply $n '"*) got=$((got + 1)) ;;
		*) printf '%s\n' "game $g, ply $n: ${first:-no problem found}" >>"$tmp/missed" ;;
		esac
	done < <(sed -n 's/^{broken at ply \([0-9]*\)}/\1/p' "$tmp/$v-broken.pgn")
	if [ "$want" -gt 0 ] && [ "$got" -eq "$want" ]; then
		echo "ok ffish-$v: $games games ($plies_read plies) valid, $want illegal moves caught at their ply"
	else
		echo "not ok ffish-$v: $got of $want illegal moves caught at their ply"
		head -n 4 "$tmp/missed" 2>/dev/null | sed 's/^/    /'
		rm -f "$tmp/missed"
	fi
done
