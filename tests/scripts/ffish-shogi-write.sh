#!/usr/bin/env bash
# vchess writes shogi's Western notation as ffish writes it: random legal
# games of every built-in variant that reads the notation (notation: shogi:
# read), played by ffish (tests/node/ffish-shogi-write.mjs) and written by
# it in SAN, Hodges (P-7f), Hodges with numbers (P-76) and Hosking (P76);
# vchess-convert --moves=shogi, shogi-number and hosking of the SAN games
# must give ffish's text move for move, and each text must read back to
# the SAN games' final positions (vchess-convert -t fen).
#
#   FULL=1 plays ten times as many games.
# Needs node and tests/node/node_modules (npm ci in tests/node); skipped
# with the reason when either is missing, and a variant ffish does not
# know is skipped by name.
set -u
# Compared with ffish in make check only: under the sanitizers
# (make san sets VCHESS_SAN=1) it skips, the C code it drives running there
# in t_genval, t_diff, t_bb and the goldens (random games of every variant).
if [ "${VCHESS_SAN:-0}" = 1 ]; then
	echo "skip ffish-shogi-write: compared with ffish in make check; the same C code runs under the sanitizers in the unit tests"
	exit 0
fi
node_dir=tests/node
games=4 plies=160
if [ "${FULL:-0}" = 1 ]; then
	games=40
fi
variants=$(grep -l '^ *shogi: read' formats/variants/*.yaml | sed 's|.*/||; s|\.yaml$||')
# ffish's dobutsu is a later rule set than the engine 11.1's (its lion can be
# taken, a chick must promote): vchess-shogi(7); fsf-diff.sh is its oracle
case " $(echo $variants) " in *" dobutsu "*)
	echo "skip shogi-write-dobutsu # ffish plays another dobutsu (vchess-shogi(7))"
	variants=$(echo "$variants" | grep -vx dobutsu) ;;
esac
if ! command -v node >/dev/null 2>&1; then
	for v in $variants; do echo "skip shogi-write-$v # node is not installed"; done
	exit 0
fi
if [ ! -d "$node_dir/node_modules/ffish" ]; then
	for v in $variants; do
		echo "skip shogi-write-$v # no $node_dir/node_modules: npm ci in $node_dir"
	done
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# moves < text: one word a move, numbers, tags and results left out
moves() {
	grep -v '^\[' | tr ' ' '\n' | grep -v -E '^$|^[0-9]+\.+$|^(\*|1-0|0-1|1/2-1/2)$'
}
opts="--no-tags --no-comments -j 1"
for v in $variants; do
	if ! node "$node_dir/ffish-shogi-write.mjs" "$tmp" "$games" "$plies" 20261202 "$v" \
		2>"$tmp/err"; then
		echo "skip shogi-write-$v # ffish cannot play $v"
		continue
	fi
	vchess-convert -j 1 -t fen "$tmp/$v-san.pgn" >"$tmp/$v.fen" 2>"$tmp/$v.err"
	n=$(moves <"$tmp/$v-san.pgn" | wc -l)
	bad=
	for style in shogi:hodges shogi-number:number hosking:hosking; do
		ours=${style%%:*} theirs=${style#*:}
		vchess-convert $opts --moves="$ours" "$tmp/$v-san.pgn" 2>>"$tmp/$v.err" |
			moves >"$tmp/$v-$theirs.got"
		moves <"$tmp/$v-$theirs.pgn" >"$tmp/$v-$theirs.want"
		if ! cmp -s "$tmp/$v-$theirs.want" "$tmp/$v-$theirs.got"; then
			bad="--moves=$ours differs from ffish's $theirs"
			diff "$tmp/$v-$theirs.want" "$tmp/$v-$theirs.got" | head -n 6 >"$tmp/why"
			break
		fi
		# what we write reads back, and so does ffish's
		for f in "$tmp/$v-$theirs.pgn"; do
			if ! vchess-convert -j 1 -t fen "$f" 2>>"$tmp/$v.err" | cmp -s - "$tmp/$v.fen"; then
				bad="ffish's $theirs text does not reach the SAN games' positions"
			fi
		done
		if ! vchess-convert -j 1 --moves="$ours" "$tmp/$v-san.pgn" 2>>"$tmp/$v.err" |
			vchess-convert -j 1 -t fen - 2>>"$tmp/$v.err" | cmp -s - "$tmp/$v.fen"; then
			bad="--moves=$ours does not read back to the SAN games' positions"
		fi
		[ -n "$bad" ] && break
	done
	if [ -z "$bad" ] && [ -s "$tmp/$v.err" ]; then
		bad="vchess-convert complained"
		head -n 3 "$tmp/$v.err" >"$tmp/why"
	fi
	if [ -n "$bad" ]; then
		echo "not ok shogi-write-$v: $bad"
		cut -c 1-200 "$tmp/why" 2>/dev/null | sed 's/^/    /'
		rm -f "$tmp/why"
	else
		echo "ok shogi-write-$v: $games games ($n plies) written as ffish writes Hodges, Hodges with numbers and Hosking, and read back"
	fi
done
