#!/usr/bin/env bash
# vchess reads the shogi family as ffish writes it: random legal games
# (tests/node/ffish-shogi.mjs) in the engine's SAN and in shogi's Western
# notation (Hodges: P-7f, Bx2b+, P*5e) must validate, ffish's results
# included; and the same games cut by a pawn drop that breaks a drop rule
# (a second pawn on a file, a pawn on the last rank, a pawn drop that
# mates) must be caught at that ply, first, with a message naming the rule
# (kyoto and micro shogi, which have no such rule: their games only).
# The SAN games, written back by vchess, are ffish's SAN move for move
# (ffish-VARIANT-san-write), but in kyoto and micro shogi (see ffish-san.sh).
#
#   FULL=1 plays five times as many games.
# Needs node and tests/node/node_modules (npm ci in tests/node); skipped
# with the reason when either is missing.
set -u
# Compared with ffish in make check only: under the sanitizers
# (make san sets VCHESS_SAN=1) it skips, the C code it drives running there
# in t_genval, t_diff, t_bb and the goldens (random games of every variant).
if [ "${VCHESS_SAN:-0}" = 1 ]; then
	echo "skip ffish-shogi: compared with ffish in make check; the same C code runs under the sanitizers in the unit tests"
	exit 0
fi
node_dir=tests/node
games=2 plies=80
if [ "${FULL:-0}" = 1 ]; then
	games=10
fi
variants="minishogi shogi euroshogi gorogoro judkins kyotoshogi micro"
# the variants with no drop rule to break (a pawn drops anywhere): their
# games must validate, and no broken game is made.  Dobutsu is not here:
# ffish's later engine plays it otherwise (a lion that may be taken, a
# chick that must promote)
free="kyotoshogi micro"
names() { for v in $variants; do for n in san hodges; do echo "$v-$n"; done; done; }
if ! command -v node >/dev/null 2>&1; then
	for t in $(names); do echo "skip ffish-$t # node is not installed"; done
	exit 0
fi
if [ ! -d "$node_dir/node_modules/ffish" ]; then
	for t in $(names); do echo "skip ffish-$t # no $node_dir/node_modules: npm ci in $node_dir"; done
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! node "$node_dir/ffish-shogi.mjs" "$tmp" "$games" "$plies" 20261202 $variants 2>"$tmp/err"; then
	for t in $(names); do echo "not ok ffish-$t: ffish-shogi.mjs failed"; done
	tail -n 3 "$tmp/err" | cut -c1-200 | sed 's/^/    /'
	exit 0
fi
# the words of each rule's message
said() {
	case $1 in
	nifu) echo "has one there already" ;;
	last-rank) echo "may not be dropped on the" ;;
	mate) echo "would checkmate by a drop of a pawn" ;;
	esac
}
for t in $(names); do
	if ! vchess-validate --summary "$tmp/$t.pgn" >"$tmp/out" 2>&1; then
		echo "not ok ffish-$t: ffish's games do not validate"
		grep error "$tmp/out" | head -n 5 | sed 's/^/    /'
		continue
	fi
	plies_read=$(sed -n 's/^plies //p' "$tmp/out")
	# the SAN games written back by vchess: ffish's SAN, move for move
	# (tests/scripts/san-same.awk); not kyoto and micro shogi's, where ffish
	# writes a drop by the face the piece shows and vchess by the piece
	case $t in
	kyotoshogi-san | micro-san | *-hodges) ;;
	*)
		vchess-convert --no-tags --no-comments "$tmp/$t.pgn" >"$tmp/written" 2>&1
		awk -v test="ffish-$t-write" -f tests/scripts/san-same.awk "$tmp/$t.pgn" "$tmp/written"
		;;
	esac
	case " $free " in
	*" ${t%-*} "*)
		echo "ok ffish-$t: $games games ($plies_read plies) valid (no drop rule to break)"
		continue
		;;
	esac
	vchess-validate "$tmp/$t-broken.pgn" >"$tmp/bad" 2>&1
	want=0 got=0 g=0 rules=""
	rm -f "$tmp/missed"
	while read -r n rule; do
		g=$((g + 1)) want=$((want + 1))
		first=$(grep -m 1 "game $g (" "$tmp/bad")
		case $first in
		*": error: game $g "*", ply $n '"*"$(said "$rule")"*)
			got=$((got + 1))
			case " $rules " in *" $rule "*) ;; *) rules="$rules $rule" ;; esac
			;;
		*) printf '%s\n' "game $g, ply $n ($rule): ${first:-no problem found}" >>"$tmp/missed" ;;
		esac
	done < <(sed -n 's/^{broken at ply \([0-9]*\) by \([a-z-]*\)}/\1 \2/p' "$tmp/$t-broken.pgn")
	if [ "$want" -gt 0 ] && [ "$got" -eq "$want" ]; then
		echo "ok ffish-$t: $games games ($plies_read plies) valid, $want broken drops caught at their ply by their rule (${rules# })"
	else
		echo "not ok ffish-$t: $got of $want broken drops caught at their ply by their rule"
		head -n 4 "$tmp/missed" 2>/dev/null | sed 's/^/    /'
	fi
done
