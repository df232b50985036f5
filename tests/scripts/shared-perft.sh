#!/usr/bin/env bash
# The perft suites of python-chess's examples (corpora/MANIFEST's perft/,
# which make corpora fetches into $CORPORA): orthodox (tricky, random),
# Chess960 and every lichess variant, to the node counts that keep the run
# short (FULL=1: every count of every suite).  Skips when absent.
set -u
P=${CORPORA:-corpora/real}/perft
full=${FULL:-0}
run() { # name variant file max-nodes
	if [ ! -f "$3" ]; then
		echo "skip $1 # $3 absent"
		return
	fi
	local out max=$4
	[ "$full" = 1 ] && max=0
	if out=$(vchess-perft --variant "$2" --suite "$3" --max-nodes "$max" 2>&1); then
		echo "ok $1: $(tail -1 <<<"$out")"
	else
		echo "not ok $1"
		grep -v '^ok' <<<"$out" | head -10 | sed 's/^/    /'
	fi
}
run tricky chess "$P/tricky.perft" 5000000
run chess960 chess960 "$P/chess960.perft" 30000
run random chess "$P/random.perft" 5000
run atomic atomic "$P/atomic.perft" 3000000
run three-check three-check "$P/3check.perft" 3000000
run antichess antichess "$P/giveaway.perft" 3000000
run horde horde "$P/horde.perft" 3000000
run racing-kings racing-kings "$P/racingkings.perft" 3000000
run crazyhouse crazyhouse "$P/crazyhouse.perft" 3000000
