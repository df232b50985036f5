#!/usr/bin/env bash
# Openings (vchess-convert --add-eco) against pgn-extract -e on the lichess
# archive of corpora/MANIFEST: the ECO codes of the two, game by game.
#
#  eco-agreement  the built-in list (lichess's) against pgn-extract's own
#                 (/usr/share/pgn-extract/eco.pgn): 88.9% of the 46,177
#                 games agree.  The goal was 90%; what keeps it lower is the
#                 lists, not the classifying, which the next test shows: the
#                 lichess list names more transpositions (1. e3 e5 2. d4 is
#                 A40, the Englund Gambit Declined, Reversed French, there,
#                 and A00, the Van't Kruijs, for pgn-extract, whose list
#                 lacks the position: 1,664 of the 5,124 games that differ
#                 are A00 for pgn-extract) and goes on where pgn-extract's
#                 stops (C01, the French Exchange, where pgn-extract's list
#                 knows only C00).  So this test fails below 88%, the
#                 agreement of these two lists, and says the figure.
#  eco-own-list   pgn-extract's eco.pgn turned into an opening list of a
#                 variant file (base: chess): vchess must name at least 99%
#                 of the games as pgn-extract does (99.6%).  The rest are
#                 boards that pgn-extract finds with the other side to move
#                 (its position hash leaves the side to move out: a line of
#                 15 plies matched by a game after 16), which vchess does
#                 not take for the same position.
#  eco-jobs       -j 2 writes what -j 1 writes.
set -u
# Compared with pgn-extract in make check only: under the sanitizers
# (make san sets VCHESS_SAN=1) it skips, the C code it drives running there
# in t_genval, t_diff, t_bb and the goldens (random games of every variant).
if [ "${VCHESS_SAN:-0}" = 1 ]; then
	echo "skip eco: compared with pgn-extract in make check; the same C code runs under the sanitizers in the unit tests"
	exit 0
fi
C=${CORPORA:-corpora/real}
A=$C/standard/lichess-magnus-2018-2022.pgn.gz
ECO_PGN=/usr/share/pgn-extract/eco.pgn
PGNX=$(command -v pgn-extract || command -v /usr/games/pgn-extract)
if [ ! -f "$A" ]; then
	echo "skip eco-agreement # $A absent"
	exit 0
fi
if [ -z "$PGNX" ] || [ ! -f "$ECO_PGN" ]; then
	echo "skip eco-agreement # pgn-extract or $ECO_PGN not installed"
	exit 0
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# ecos FILE: one line a game, its ECO tag or "-"
ecos() {
	awk '/^\[Event /{if (n) print e; n = 1; e = "-"; next}
	     /^\[ECO /{e = $2} END{if (n) print e}' "$1"
}
# agree NAME MIN A B: the share of lines of A and B that are the same, in
# tenths of a percent, at least MIN
agree() {
	local name=$1 min=$2 n s
	n=$(wc -l <"$3")
	if [ "$n" != "$(wc -l <"$4")" ] || [ "$n" = 0 ]; then
		echo "not ok $name: $n games against $(wc -l <"$4")"
		return
	fi
	s=$(paste "$3" "$4" | awk -F '\t' '$1 == $2' | wc -l)
	local permille=$((s * 1000 / n))
	local pct="$((permille / 10)).$((permille % 10))%"
	if [ "$permille" -ge "$min" ]; then
		echo "ok $name: $s of $n games agree ($pct)"
	else
		echo "not ok $name: $s of $n games agree ($pct, want $((min / 10)).$((min % 10))%)"
		paste "$3" "$4" | awk -F '\t' '$1 != $2' | sort | uniq -c | sort -rn | head -5 |
			sed 's/^/    /'
	fi
}

gzip -dc "$A" >"$T/a.pgn"
(cd "$T" && "$PGNX" -s -e"$ECO_PGN" -o pe.pgn a.pgn 2>/dev/null)
ecos "$T/pe.pgn" >"$T/pe.eco"
vchess-convert -j 1 --add-eco -o "$T/j1.pgn" "$T/a.pgn" 2>"$T/j1.err"
ecos "$T/j1.pgn" >"$T/vc.eco"
agree eco-agreement 880 "$T/pe.eco" "$T/vc.eco"

# pgn-extract's list as ours: ECO, the names joined, the moves
awk 'BEGIN { RS = ""; FS = "\n"; print "eco\tname\tpgn" }
     /^\{/ { skip = 1 }
     skip { if (index($0, "}")) skip = 0; next }
     /^\[/ { eco = ""; name = ""
	     for (i = 1; i <= NF; i++) {
		     if (match($i, /^\[[A-Za-z]+ "/)) {
			     k = substr($i, 2, RLENGTH - 3)
			     v = substr($i, RLENGTH + 1); sub(/"\]$/, "", v)
			     if (k == "ECO") eco = v
			     else if (k == "Opening") name = v
			     else name = name ", " v
		     }
	     }
	     next }
     { m = $0; gsub(/\n/, " ", m); sub(/ *\*.*$/, "", m); print eco "\t" name "\t" m }' \
	"$ECO_PGN" >"$T/pe-eco.tsv"
printf 'name: chess-eco-pgn\nbase: chess\nopenings: pe-eco.tsv\n' >"$T/pe.yaml"
sed '/^\[Variant "Standard"\]$/d' "$T/a.pgn" >"$T/nov.pgn"
vchess-convert -j 2 --add-eco --variant "$T/pe.yaml" -o "$T/own.pgn" "$T/nov.pgn" 2>"$T/own.err"
if grep -q 'eco-list\|error' "$T/own.err"; then
	echo "not ok eco-own-list: pgn-extract's list does not read"
	head -3 "$T/own.err" | sed 's/^/    /'
else
	ecos "$T/own.pgn" >"$T/own.eco"
	agree eco-own-list 990 "$T/pe.eco" "$T/own.eco"
fi

vchess-convert -j 2 --add-eco -o "$T/j2.pgn" "$T/a.pgn" 2>"$T/j2.err"
if cmp -s "$T/j1.pgn" "$T/j2.pgn" && cmp -s "$T/j1.err" "$T/j2.err"; then
	echo "ok eco-jobs: -j 2 writes what -j 1 writes ($(tail -n 1 "$T/j1.err"))"
else
	echo "not ok eco-jobs: -j 2 differs from -j 1"
fi
