#!/usr/bin/env bash
# fsf-perft.sh BUILD - perft of every variant vchess and Fairy-Stockfish both know, side by
# side in one run: from the start, at the first depth whose count reaches $FSF_PERFT_NODES
# (10,000,000) nodes, at most 9 (fewer leave both sides' times in tens of milliseconds,
# where the noise of a busy machine decides the ratio), vchess-perft's seconds of processor
# against the engine's `go perft`, the best of $FSF_PERFT_RUNS (1) runs each (and of that
# many and $FSF_PERFT_RERUN, 3, more for the ratios under 3.3x, measured again at the end), both
# start-ups taken out (each side's time at depth 1, variant loading included, is
# subtracted).  Times are perf's task-clock where perf works.  Issue #20's second target
# asks for at least 3x the engine on every one; the last lines give the slowest ratios and
# how many variants reach 3x.  The pairs are tests/scripts/fsf-diff.sh's table (the
# "dropmate" twins are counted as the variant itself: the engine's count differs only by the
# mates).  Reports only; asserts nothing.  make bench runs it after tests/bench/run.sh.
set -u
BUILD=${1:-build-bench}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PATH=$PATH:/usr/games
VPERFT=$BUILD/bin/vchess-perft
case $VPERFT in /*) ;; *) VPERFT=$ROOT/$VPERFT ;; esac
if ! command -v fairy-stockfish >/dev/null 2>&1; then
	echo "perft against fairy-stockfish: skipped (fairy-stockfish not installed)"
	exit 0
fi
if [ ! -x "$VPERFT" ]; then
	echo "perft against fairy-stockfish: skipped (no $VPERFT)"
	exit 0
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vchess-fsfperft.XXXXXX") || exit 0
trap 'rm -rf "$TMP"' EXIT
table=$(sed -n '/^table="$/,/^"$/p' "$ROOT/tests/scripts/fsf-diff.sh" | grep -v '"')
# FSF_PERFT_ONLY=REGEX: only the variants whose vchess name matches (a rerun of the slow ones)
if [ -n "${FSF_PERFT_ONLY:-}" ]; then
	table=$(awk -v re="^(${FSF_PERFT_ONLY})\$" '$1 ~ re' <<<"$table")
fi

RUNS=${FSF_PERFT_RUNS:-1}
NODES=${FSF_PERFT_NODES:-10000000}
# perf's task-clock (the processor time of the process and its children, to
# the microsecond) where perf works, else /usr/bin/time's (to 10 ms)
if perf stat -x, -e task-clock true >/dev/null 2>&1; then
	clock=perf
else
	clock="time"
fi
# cpu CMD...: the least processor seconds of CMD over RUNS runs (stdout to $TMP/out)
cpu() {
	local i t best=
	for ((i = 0; i < RUNS; i++)); do
		if [ $clock = perf ]; then
			perf stat -x, -e task-clock -o "$TMP/time" "$@" >"$TMP/out" 2>/dev/null
			t=$(awk -F, '$3 == "task-clock" { printf "%.4f", $1 / 1000 }' "$TMP/time")
		else
			/usr/bin/time -f '%U %S' -o "$TMP/time" "$@" >"$TMP/out" 2>/dev/null
			t=$(awk '{ printf "%.4f", $1 + $2 }' "$TMP/time")
		fi
		best=$(awk -v b="$best" -v t="$t" 'BEGIN { printf "%.4f", (b == "" || t < b) ? t : b }')
	done
	echo "$best"
}
# less A B: A - B seconds, at least a millisecond
less() {
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; printf "%.4f", (d > 0.0001 ? d : 0.0001) }'
}
# engine VARIANT DEPTH: the engine's seconds for go perft DEPTH, less those of depth 1
engine() {
	local a b
	a=$(cpu sh -c "printf 'uci\nsetoption name UCI_Variant value %s\nposition startpos\ngo perft 1\nquit\n' '$1' | fairy-stockfish")
	b=$(cpu sh -c "printf 'uci\nsetoption name UCI_Variant value %s\nposition startpos\ngo perft %s\nquit\n' '$1' '$2' | fairy-stockfish")
	less "$b" "$a"
}

# measure VARIANT ENGINE-NAME [NOTE]: its table line, and "ratio variant" in $TMP/ratios
measure() {
	local v=$1 e=$2 d=1 n=0 tv te ratio
	while [ $d -le 9 ]; do
		n=$("$VPERFT" --variant "$v" "$d" 2>/dev/null | tail -n 1)
		case $n in '' | *[!0-9]*) n=0; break ;; esac
		[ "$n" -ge "$NODES" ] && break
		d=$((d + 1))
	done
	[ $d -gt 9 ] && d=9
	if [ "$n" = 0 ]; then
		printf '%-20s %s\n' "$v" "(vchess-perft failed)"
		return
	fi
	tv=$(less "$(cpu "$VPERFT" --variant "$v" "$d")" "$(cpu "$VPERFT" --variant "$v" 1)")
	te=$(engine "$e" "$d")
	# measured before (the rerun below): each side's best over every run
	read -r tv te < <(awk -v v="$v" -v a="$tv" -v b="$te" '$1 == v {
		if ($2 < a) a = $2; if ($3 < b) b = $3 } END { print a, b }' "$TMP/times")
	echo "$v $tv $te" >>"$TMP/times"
	ratio=$(awk -v a="$tv" -v b="$te" 'BEGIN { printf "%.2f", (a > 0 ? b / a : 0) }')
	printf '%-20s %5d %12d %8.3fs %8.3fs %6.2fx%s\n' "$v" "$d" "$n" "$tv" "$te" "$ratio" "${3:-}"
	echo "$ratio $v" >>"$TMP/ratios"
}
printf '%-20s %5s %12s %9s %9s %7s\n' "variant" "depth" "nodes" "vchess" "engine" "ratio"
: >"$TMP/ratios"
: >"$TMP/times"
while read -r v e _; do
	[ -n "$v" ] && measure "$v" "$e"
done <<<"$table"
# The variants within a tenth of the target (under 3.3x) once more, at
# FSF_PERFT_RERUN (3) runs each where fewer were made: a single run moves by
# a third either way on a busy host, and the other rows of make bench are
# best of three too.  Their ratio, from each side's best time over the first
# run and these, replaces the first.
RERUN=${FSF_PERFT_RERUN:-3}
if [ "$RUNS" -lt "$RERUN" ]; then
	slow=$(awk '$1 < 3.3 { print $2 }' "$TMP/ratios")
	if [ -n "$slow" ]; then
		echo "again, best of $RERUN more runs each (and the first):"
		RUNS=$RERUN
		grep -v -x -F -f <(awk '$1 < 3.3' "$TMP/ratios") "$TMP/ratios" >"$TMP/kept" || true
		mv "$TMP/kept" "$TMP/ratios"
		for v in $slow; do
			e=$(awk -v v="$v" '$1 == v { print $2; exit }' <<<"$table")
			measure "$v" "$e" " (best of $((RERUN + 1)))"
		done
	fi
fi
total=$(grep -c . "$TMP/ratios")
three=$(awk '$1 >= 3' "$TMP/ratios" | grep -c .)
echo
echo "perft against fairy-stockfish: $three of $total variants at 3x the engine or more (target: all); the slowest:"
sort -n "$TMP/ratios" | head -n 8 | awk '{ printf "  %-20s %sx\n", $2, $1 }'
exit 0
