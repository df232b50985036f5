#!/usr/bin/env bash
# The perft suites of python-chess's examples (corpora/MANIFEST's perft/,
# which make corpora fetches into $CORPORA):
# orthodox (tricky, random) and Chess960, to the node counts that keep the
# run short; the deep ones are for make bench.  Skips when absent.
set -u
P=${CORPORA:-corpora/real}/perft
run() { # name file max-nodes
	if [ ! -f "$2" ]; then
		echo "skip $1 # $2 absent"
		return
	fi
	local out
	if out=$(vchess-perft --variant chess --suite "$2" --max-nodes "$3" 2>&1); then
		echo "ok $1: $(tail -1 <<<"$out")"
	else
		echo "not ok $1"
		grep -v '^ok' <<<"$out" | head -10 | sed 's/^/    /'
	fi
}
run tricky "$P/tricky.perft" 5000000
run chess960 "$P/chess960.perft" 30000
run random "$P/random.perft" 5000
