#!/usr/bin/env bash
# tests/bench/scale.sh [BUILD_DIR] [SIZE_MB] - validation as the archive grows (make bench-scale).
#
# 1. Linear time, flat memory: vchess-validate -j 1 reads the lichess archive of
#    corpora/MANIFEST once, 4 times and 8 times over (from a pipe: nothing is written to disk);
#    each row gives the wall time per copy and the peak RSS, which should stay the same.
# 2. SIZE_MB megabytes (default 10240: 10 GB) of games, the archive repeated, validated through
#    the GNU parallel recipe of vchess-validate(1) ("Many machines"): chunks of 5000 games,
#    one process each, the summaries merged.  The merged count of games must be the copies
#    times the archive's, and every game valid; the row gives wall time, games and MB a second.
#
# It reports and asserts only that the counts add up (exit 1 when they do not); timing is for
# the reader.  BUILD_DIR defaults to build-bench (built by make bench-scale).
set -u
export LC_ALL=C
script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
ROOT=$(cd "$script_dir/../.." && pwd -P)
BUILD=${1:-build-bench}
case $BUILD in /*) ;; *) BUILD="$ROOT/$BUILD" ;; esac
SIZE_MB=${2:-10240}
CORPORA=${CORPORA:-corpora/real}
case $CORPORA in /*) ;; *) CORPORA="$ROOT/$CORPORA" ;; esac
A=$CORPORA/standard/lichess-magnus-2018-2022.pgn.gz
V=$BUILD/bin/vchess-validate
if [ ! -f "$A" ]; then
	echo "bench-scale: skipped: $A absent (make corpora)"
	exit 0
fi
if [ ! -x "$V" ]; then
	echo "bench-scale: skipped: $V not built"
	exit 0
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/vchess-scale.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
gzip -dc "$A" >"$T/a.pgn"
mb=$(($(wc -c <"$T/a.pgn") / 1048576))
# copies N: the archive N times on standard output
copies() { for ((i = 0; i < $1; i++)); do cat "$T/a.pgn"; done; }
fail=0
echo "machine: $(nproc) cores, load $(cut -d ' ' -f 1-3 /proc/loadavg)"
echo "archive: lichess, $mb MB"
printf '%-28s %10s %12s %12s\n' "row" "wall s" "s per copy" "peak RSS KB"
for n in 1 4 8; do
	copies "$n" | /usr/bin/time -f '%e %M' -o "$T/time" "$V" -j 1 --quiet --summary - >"$T/sum" 2>/dev/null
	read -r wall rss <"$T/time"
	games=$(sed -n 's/^games //p' "$T/sum")
	[ "$n" = 1 ] && g1=$games
	if [ "$games" != "$((g1 * n))" ]; then
		echo "not ok: x$n read $games games, want $((g1 * n))"
		fail=1
	fi
	printf '%-28s %10s %12s %12s\n' "validate -j 1 x$n" "$wall" \
		"$(awk -v w="$wall" -v n="$n" 'BEGIN { printf "%.2f", w / n }')" "$rss"
done
if ! command -v parallel >/dev/null; then
	echo "bench-scale: parallel row skipped: GNU parallel not installed"
	exit $fail
fi
k=$(((SIZE_MB + mb - 1) / mb))
start=$(date +%s.%N)
copies "$k" |
	parallel --pipe -N 5000 --block 64M --recstart '[Event ' --keep-order \
		"$V"' -j 1 --first-game $(( ({#} - 1) * 5000 + 1 )) --summary --summary-format=tsv -' \
		2>"$T/par.err" |
	"$V" --merge-summaries - >"$T/merged"
end=$(date +%s.%N)
games=$(sed -n 's/^games //p' "$T/merged")
valid=$(sed -n 's/^valid //p' "$T/merged")
awk -v s="$start" -v e="$end" -v g="$games" -v mb="$((k * mb))" -v k="$k" \
	'BEGIN { w = e - s; printf "%-28s %10.1f %12s %12s\n", "parallel " mb " MB (x" k ")", w, "-", "-";
		 printf "  %d games, %.0f games/s, %.1f MB/s\n", g, g / w, mb / w }'
if [ "$games" != "$((g1 * k))" ] || [ "$valid" != "$games" ]; then
	echo "not ok: the merged summary counts $games games ($valid valid), want $((g1 * k))"
	head -n 3 "$T/par.err"
	fail=1
fi
exit $fail
