#!/usr/bin/env bash
# Every fuzz target, built without libFuzzer, replays its seeds and every
# past finding kept in corpora/fuzz/NAME: none may crash or abort.
set -u
B=${VCHESS_BUILD:-build}
for t in "$B"/fuzz-replay/fuzz_*; do
	[ -x "$t" ] || continue
	name=${t##*/fuzz_}
	dir=corpora/fuzz/$name
	if [ ! -d "$dir" ]; then
		echo "not ok fuzz-$name: no seed corpus $dir"
		continue
	fi
	if out=$("$t" "$dir" 2>&1); then
		echo "ok fuzz-$name: $out"
	else
		echo "not ok fuzz-$name"
		echo "$out" | tail -5 | sed 's/^/    /'
	fi
done
