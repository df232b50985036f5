#!/usr/bin/env bash
# The dots style against the diagrams of the Io Chess rule text ("IO Chess",
# Mark Hedden, The Chess Variant Pages; corpora/MANIFEST names its text,
# which make corpora puts in $CORPORA/rule-texts/004_ef79fdda42e434c5.txt):
#  - the first diagram (the setup) and tests/data/render-io-like.yaml, a
#    16x16 test board with the same setup but no walls: every line but the
#    two with walls (ranks 2 and 15) must be equal; the walls themselves are
#    checked by tests/unit/t_render.c, which places them by hand;
#  - once the built-in io-chess exists: its setup equals the first diagram
#    line for line, walls included;
#  - once corpora/io/ holds the sample game: after move 3 (ply 6) some game
#    there equals the rule text's third diagram.
set -u
text=${CORPORA:-corpora/real}/rule-texts/004_ef79fdda42e434c5.txt
if [ ! -f "$text" ]; then
	echo "skip render-io: no $text"
	exit 0
fi
tmp=${TMPDIR:-/tmp}/render-io.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
# the diagrams: 16 rows ending in "  16" ... "  1", a blank line, the files
awk -v dir="$tmp" '
	/  16$/ { n++; rows = 1; out = dir "/diagram-" n ".txt"; print > out; next }
	rows > 0 && rows < 18 { print >> out; rows++; next }
	{ rows = 0 }' "$text"
if [ ! -f "$tmp/diagram-1.txt" ] || [ "$(wc -l <"$tmp/diagram-1.txt")" -ne 18 ]; then
	echo "not ok render-io: cannot find the first diagram in $text"
	exit 1
fi

vchess-render --style dots --variant tests/data/render-io-like.yaml >"$tmp/like.txt"
if diff <(sed '2d;15d' "$tmp/diagram-1.txt") <(sed '2d;15d' "$tmp/like.txt") >"$tmp/d"; then
	echo "ok render-io: the setup, but for its walls, as the rule text draws it"
else
	echo "not ok render-io: the setup differs from the rule text's first diagram"
	sed 's/^/    /' "$tmp/d" | head -20
fi

if vchess-variant list | awk '{print $1}' | grep -qx io-chess; then
	vchess-render --style dots --variant io-chess >"$tmp/io.txt"
	if diff "$tmp/diagram-1.txt" "$tmp/io.txt" >"$tmp/d"; then
		echo "ok render-io: io-chess's setup is the rule text's first diagram, walls and all"
	else
		echo "not ok render-io: io-chess's setup differs from the rule text's first diagram"
		sed 's/^/    /' "$tmp/d" | head -20
	fi
else
	echo "skip render-io: io-chess is not built in yet"
fi

shopt -s nullglob
games=(corpora/io/*.pgn corpora/io/*.pgn.gz)
if [ ${#games[@]} -eq 0 ] || [ ! -f "$tmp/diagram-3.txt" ]; then
	echo "skip render-io: no corpora/io games yet for the diagram after move 3"
	exit 0
fi
found=""
for f in "${games[@]}"; do
	for g in 1 2 3 4 5 6 7 8; do
		vchess-render --style dots --game "$g" --ply 6 "$f" >"$tmp/ply6.txt" 2>/dev/null || continue
		if cmp -s "$tmp/diagram-3.txt" "$tmp/ply6.txt"; then
			found="$f game $g"
			break 2
		fi
	done
done
if [ -n "$found" ]; then
	echo "ok render-io: after move 3, $found is the rule text's diagram"
else
	echo "not ok render-io: no game of corpora/io/ after move 3 is the rule text's third diagram"
fi
