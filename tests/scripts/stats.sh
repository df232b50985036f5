#!/usr/bin/env bash
# vchess-validate --stats on the real archives of corpora/MANIFEST: -j 2
# counts what -j 1 counts; the statistics of two pieces of an archive,
# merged, are those of the whole (the median included: the plies travel as
# a histogram); the results and the endings told by the Termination tag are
# what the tags say, counted apart with awk.
set -u
C=${CORPORA:-corpora/real}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

check() { # check NAME FILE
	local name=$1 f=$2
	if [ ! -f "$f" ]; then
		echo "skip $name # $f absent"
		return
	fi
	gzip -dc "$f" >"$T/a.pgn"
	vchess-validate -q -j 1 --stats "$T/a.pgn" >"$T/j1"
	vchess-validate -q -j 2 --stats "$T/a.pgn" >"$T/j2"
	if cmp -s "$T/j1" "$T/j2"; then
		echo "ok $name-jobs: -j 2 counts what -j 1 counts"
	else
		echo "not ok $name-jobs: -j 2 differs from -j 1"
		diff "$T/j1" "$T/j2" | head -5 | sed 's/^/    /'
	fi
	# two pieces, cut at a game's first tag near the middle
	local n cut
	n=$(wc -l <"$T/a.pgn")
	cut=$(awk -v h=$((n / 2)) 'NR > h && /^\[Event /{print NR; exit}' "$T/a.pgn")
	head -n $((cut - 1)) "$T/a.pgn" >"$T/p1.pgn"
	tail -n +"$cut" "$T/a.pgn" >"$T/p2.pgn"
	vchess-validate -q --stats --summary-format=tsv "$T/p1.pgn" >"$T/p1.tsv"
	vchess-validate -q --stats --summary-format=tsv "$T/p2.pgn" >"$T/p2.tsv"
	vchess-validate --merge-summaries "$T/p1.tsv" "$T/p2.tsv" >"$T/merged"
	if cmp -s "$T/j1" "$T/merged"; then
		echo "ok $name-merge: two pieces merged are the whole"
	else
		echo "not ok $name-merge: two pieces merged differ from the whole"
		diff "$T/j1" "$T/merged" | head -5 | sed 's/^/    /'
	fi
}
check stats-lichess "$C/standard/lichess-magnus-2018-2022.pgn.gz"
check stats-variants "$C/variant/lichess-other-variants.pgn.gz"

# the counts against the tags, on the lichess archive (orthodox games only)
A=$C/standard/lichess-magnus-2018-2022.pgn.gz
if [ -f "$A" ]; then
	gzip -dc "$A" >"$T/a.pgn"
	want=$(awk '/^\[Result /{r = $2}
		/^\[Termination /{t = $0}
		/^\[Event /{if (r != "") {n[r]++; if (r ~ /1-0|0-1/ && t ~ /Time/) time++}; r = ""; t = ""}
		END{if (r != "") {n[r]++; if (r ~ /1-0|0-1/ && t ~ /Time/) time++}
		    printf "1-0 %d, 0-1 %d, 1/2-1/2 %d, time %d\n", n["\"1-0\"]"], n["\"0-1\"]"],
			n["\"1/2-1/2\"]"], time}' "$T/a.pgn")
	got=$(vchess-validate -q --stats "$T/a.pgn" | awk '
		/results:/{for (i = 1; i <= NF; i++) if ($i ~ /^(1-0|0-1|1\/2-1\/2)$/) n[$i] = $(i + 1)}
		/decisive games/{for (i = 1; i <= NF; i++) if ($i == "time") t = $(i + 1)}
		END{printf "1-0 %d, 0-1 %d, 1/2-1/2 %d, time %d\n", n["1-0"], n["0-1"], n["1/2-1/2"], t}')
	if [ "$want" = "$got" ]; then
		echo "ok stats-tags: $got, as the tags say"
	else
		echo "not ok stats-tags: --stats says '$got', the tags '$want'"
	fi
else
	echo "skip stats-tags # $A absent"
fi
