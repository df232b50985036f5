#!/usr/bin/env bash
# vchess-convert --moves=uci and --moves=lan, differentially.
#
#  1. Every built-in variant: seeded random games (tests/unit/t_genval.c)
#     converted with --moves=uci give, move for move, the coordinates that
#     the generator itself writes for the moves it played (vc_move_coord on
#     its own move, not through a replay), and read back (UCI and LAN both)
#     to the very canonical text of the SAN games.
#  2. The lichess variants: our UCI equals chessops's (lichess's own rules
#     library, tests/node/chessops-uci.mjs) on random games of each, and on
#     the first games of the real lichess archives when they are there.
#
# Skips with the reason what needs node, chessops or the real archives.
# Under make san (VCHESS_SAN=1) one random game a variant, and no chessops:
# the same C code, under the sanitizers; the check run compares it all.
set -u
ng=4 nl=6
[ "${VCHESS_SAN:-0}" = 1 ] && ng=1
B=${VCHESS_BUILD:-build}
G=$B/tests/t_genval
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ ! -x "$G" ]; then
	echo "skip convert-uci # no $G (make tests)"
	exit 0
fi

# moves_only < text: the movetext of each game (tags and comments left out
# beforehand) on one line, move numbers and results dropped.
moves_only() {
	awk 'BEGIN { RS = ""; ORS = "\n" }
	{
		gsub(/\n/, " ")
		n = split($0, a, " ")
		s = ""
		for (i = 1; i <= n; i++) {
			if (a[i] ~ /^[0-9]+\.+$/ || a[i] ~ /^(1-0|0-1|1\/2-1\/2|\*)$/)
				continue
			s = s (s == "" ? "" : " ") a[i]
		}
		print s
	}'
}

plain="--no-tags --no-comments --no-variations --no-nags -j 1"
vchess-variant list | while read -r v _; do
	"$G" --variant "$v" --games "$ng" --plies 120 --seed 11 --write san >"$tmp/$v.pgn" 2>/dev/null
	"$G" --variant "$v" --games "$ng" --plies 120 --seed 11 --write coord 2>/dev/null |
		grep -v '^\[' | moves_only >"$tmp/$v.want"
	vchess-convert $plain --moves=uci "$tmp/$v.pgn" 2>"$tmp/$v.err" | moves_only >"$tmp/$v.got"
	plies=$(wc -w <"$tmp/$v.want")
	if [ ! -s "$tmp/$v.want" ] || [ "$plies" -lt $((4 * ng)) ]; then
		echo "not ok uci-$v: the random games have $plies plies"
		continue
	fi
	if ! cmp -s "$tmp/$v.want" "$tmp/$v.got"; then
		echo "not ok uci-$v: --moves=uci differs from the generator's coordinates"
		diff "$tmp/$v.want" "$tmp/$v.got" | head -n 6 | cut -c 1-200 | sed 's/^/    /'
		continue
	fi
	vchess-convert -j 1 "$tmp/$v.pgn" >"$tmp/$v.san" 2>&1
	bad=
	for style in uci lan; do
		vchess-convert -j 1 --moves=$style "$tmp/$v.pgn" 2>&1 | vchess-convert -j 1 - \
			>"$tmp/$v.back" 2>&1
		cmp -s "$tmp/$v.san" "$tmp/$v.back" || bad="$bad $style"
	done
	if [ -n "$bad" ]; then
		echo "not ok uci-$v: does not read back to the same game:$bad"
		diff "$tmp/$v.san" "$tmp/$v.back" | head -n 6 | sed 's/^/    /'
	else
		echo "ok uci-$v: $plies plies as the generator writes them; UCI and LAN read back"
	fi
done

# ---- 2. chessops ----
node_dir=tests/node
lichess="chess crazyhouse chess960 antichess king-of-the-hill three-check racing-kings horde atomic"
if [ "${VCHESS_SAN:-0}" = 1 ]; then
	echo "skip uci-chessops # compared with chessops in make check; the writer ran above"
	exit 0
fi
if ! command -v node >/dev/null 2>&1; then
	echo "skip uci-chessops # node is not installed"
	exit 0
fi
if [ ! -d "$node_dir/node_modules/chessops" ]; then
	echo "skip uci-chessops # no $node_dir/node_modules: npm ci in $node_dir"
	exit 0
fi

# against FILE NAME: our UCI of FILE's games against chessops's
against() {
	vchess-convert -j 1 --no-comments --no-variations "$1" >"$tmp/c.pgn" 2>/dev/null
	node "$node_dir/chessops-uci.mjs" <"$tmp/c.pgn" >"$tmp/c.want" 2>"$tmp/c.err" || {
		echo "not ok uci-chessops-$2: chessops-uci.mjs failed"
		sed 's/^/    /' "$tmp/c.err" | head -n 5
		return
	}
	vchess-convert $plain --moves=uci "$tmp/c.pgn" 2>/dev/null | moves_only >"$tmp/c.got"
	local games plies
	games=$(wc -l <"$tmp/c.want")
	plies=$(wc -w <"$tmp/c.want")
	if [ "$games" -gt 0 ] && [ "$plies" -gt 0 ] && cmp -s "$tmp/c.want" "$tmp/c.got"; then
		echo "ok uci-chessops-$2: $games games, $plies plies as chessops writes them"
	else
		echo "not ok uci-chessops-$2: $games games, $plies plies; our UCI differs from chessops's"
		diff "$tmp/c.want" "$tmp/c.got" | head -n 6 | cut -c 1-200 | sed 's/^/    /'
	fi
}

for v in $lichess; do
	"$G" --variant "$v" --games "$nl" --plies 160 --seed 5 --write san >"$tmp/l-$v.pgn" 2>/dev/null
	against "$tmp/l-$v.pgn" "$v"
done
for a in standard/lichess-magnus-2018-2022.pgn.gz variant/lichess-other-variants.pgn.gz; do
	name=$(basename "$a" .pgn.gz)
	if [ ! -f "$CORPORA/$a" ]; then
		echo "skip uci-chessops-$name # no $CORPORA/$a"
		continue
	fi
	vchess-convert -j 1 --select 'game=1-3000' "$CORPORA/$a" >"$tmp/$name.pgn" 2>/dev/null
	against "$tmp/$name.pgn" "$name"
done
