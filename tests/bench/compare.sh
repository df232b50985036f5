#!/usr/bin/env bash
# tests/bench/compare.sh [REV] - the working tree against an earlier commit, side by side.
#
# Builds REV (default HEAD~1) in a temporary git worktree and the working tree in
# build-bench, both with make bench's flags, then times three workloads, interleaved
# (old, new, old, new, ...) BENCH_REPS times each (default 5): validation of the lichess
# archive at -j 1, its conversion to canonical text, and perft 6 from the orthodox start.
# It prints, for each, the best user+system CPU time of each build and the ratio new/old
# (below 1: the working tree is faster).  CPU time rather than wall time, so that other
# work on the machine moves the figures less; the best of several runs for the same reason.
# It reports only and exits 0; a missing archive turns its rows into a note.
#
# Environment: CORPORA (default corpora/real), BENCH_REPS.  make bench-compare REV=...
set -u
export LC_ALL=C
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
cd "$ROOT" || exit 0
REV=${1:-HEAD~1}
REPS=${BENCH_REPS:-5}
CORPORA=${CORPORA:-corpora/real}
case $CORPORA in /*) ;; *) CORPORA="$ROOT/$CORPORA" ;; esac
# the flags of make bench's build, read from the Makefile of this tree
FLAGS=$(sed -n 's/^BENCH_CFLAGS ?= //p' "$ROOT/Makefile")

TMP=$(mktemp -d "${TMPDIR:-/tmp}/vchess-compare.XXXXXX") || exit 0
cleanup() {
	git worktree remove --force "$TMP/old" >/dev/null 2>&1
	rm -rf "$TMP"
}
trap cleanup EXIT

if ! git worktree add -q --detach "$TMP/old" "$REV" 2>"$TMP/err"; then
	echo "compare: cannot check out $REV: $(head -1 "$TMP/err")"
	exit 0
fi
echo "compare: building $REV and the working tree"
make -s -C "$TMP/old" BUILD=build-bench EXTRA_CFLAGS="$FLAGS" all >/dev/null 2>&1 ||
	{ echo "compare: $REV does not build"; exit 0; }
make -s BUILD=build-bench EXTRA_CFLAGS="$FLAGS" all >/dev/null 2>&1 ||
	{ echo "compare: the working tree does not build"; exit 0; }
OLD="$TMP/old/build-bench/bin"
NEW="$ROOT/build-bench/bin"

# cpu CMD...: user+system seconds of one run
cpu() {
	/usr/bin/time -f '%U %S' -o "$TMP/t" "$@" >/dev/null 2>&1
	awk '{ printf "%.3f\n", $1 + $2 }' "$TMP/t"
}

# row LABEL ARGS...: ARGS run with each build's tools ({} is the bin directory)
row() {
	local label=$1 bo=999999 bn=999999 t i
	shift
	for ((i = 0; i < REPS; i++)); do
		t=$(cpu "${@//\{\}/$OLD}")
		bo=$(awk -v a="$bo" -v b="$t" 'BEGIN { print (b < a ? b : a) }')
		t=$(cpu "${@//\{\}/$NEW}")
		bn=$(awk -v a="$bn" -v b="$t" 'BEGIN { print (b < a ? b : a) }')
	done
	awk -v l="$label" -v o="$bo" -v n="$bn" \
		'BEGIN { printf "%-34s %8.3f s %8.3f s %7.3f\n", l, o, n, (o > 0 ? n / o : 0) }'
}

printf '%-34s %10s %10s %7s\n' "workload (best of $REPS, CPU)" "$REV" "new" "new/old"
lichess="$CORPORA/standard/lichess-magnus-2018-2022.pgn.gz"
if [ -f "$lichess" ]; then
	gzip -dc "$lichess" >"$TMP/lichess.pgn"
	row "validate lichess -j 1" {}/vchess-validate -j 1 --quiet "$TMP/lichess.pgn"
	row "convert lichess to text -j 1" {}/vchess-convert -j 1 -o "$TMP/out.pgn" "$TMP/lichess.pgn"
else
	echo "note: $lichess absent (make corpora): no validation or conversion rows"
fi
row "perft 6 from the start" {}/vchess-perft 6
exit 0
