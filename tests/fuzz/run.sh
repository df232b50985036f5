#!/usr/bin/env bash
# make fuzz SECONDS=N: builds every tests/fuzz/fuzz_NAME.c with clang's
# libFuzzer, ASan and UBSan (in build-fuzz), and runs each for N seconds on
# its seeds (corpora/fuzz/NAME) with its dictionary.  New inputs go to
# build-fuzz/corpus/NAME; a crash is written to build-fuzz/artifacts/ and
# makes the run fail: keep it (renamed) in corpora/fuzz/NAME once fixed, so
# that make check replays it for ever.  Targets run one after another; set
# FUZZ_JOBS=2 to run two at a time.  Then the generator-against-validator
# test runs many more random games than make check does (see the end).
set -u
secs=${1:-60}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
B=build-fuzz
flags='-O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined'
make --no-print-directory BUILD=$B CC=clang EXTRA_CFLAGS="$flags" lib >/dev/null || exit 2
libs=$(pkg-config --libs libxml-2.0 zlib yaml-0.1)
cflags=$(pkg-config --cflags libxml-2.0 zlib yaml-0.1)
mkdir -p $B/fuzz $B/artifacts
fail=0
run_one() {
	local src=$1 name
	name=$(basename "$src" .c)
	name=${name#fuzz_}
	clang -O1 -g -fsanitize=fuzzer,address,undefined -Ilib -I$B/gen $cflags "$src" $B/libvchess.a \
		$libs -lm -pthread -o $B/fuzz/fuzz_$name || return 2
	mkdir -p $B/corpus/$name
	local dict=""
	[ -f corpora/fuzz/$name.dict ] && dict=-dict=corpora/fuzz/$name.dict
	echo "fuzz: $name for ${secs}s"
	$B/fuzz/fuzz_$name -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix=$B/artifacts/$name- $dict $B/corpus/$name corpora/fuzz/$name \
		>$B/fuzz/$name.log 2>&1
	local rc=$?
	grep -E '^#[0-9]+.*(DONE|pulse)|stat::' $B/fuzz/$name.log | tail -2
	if [ $rc -ne 0 ]; then
		echo "fuzz: $name FAILED (see $B/fuzz/$name.log and $B/artifacts/)"
		return 1
	fi
	return 0
}
jobs=${FUZZ_JOBS:-1}
pids=()
for src in tests/fuzz/fuzz_*.c; do
	run_one "$src" &
	pids+=($!)
	if [ ${#pids[@]} -ge "$jobs" ]; then
		wait "${pids[0]}" || fail=1
		pids=("${pids[@]:1}")
	fi
done
for p in "${pids[@]}"; do wait "$p" || fail=1; done

# Generator against validator (tests/unit/t_genval.c), far longer than in
# make check: about 25 random games of 400 plies a variant for every 10
# seconds, with a new seed each run (printed, so a failure can be replayed
# with t_genval --seed S --games N --plies 400).
genval=${VCHESS_BUILD:-build}/tests/t_genval
if [ -x "$genval" ]; then
	gseed=${GENVAL_SEED:-$(date +%s)}
	games=$(( secs * 5 / 2 ))
	[ "$games" -ge 1 ] || games=1
	echo "fuzz: genval: $games games of 400 plies a variant, seed $gseed"
	if ! "$genval" --games "$games" --plies 400 --seed "$gseed" >$B/fuzz/genval.log 2>&1 ||
		grep -q '^not ok' $B/fuzz/genval.log; then
		echo "fuzz: genval FAILED (see $B/fuzz/genval.log)"
		fail=1
	fi
else
	echo "fuzz: genval skipped: $genval is not built"
fi
exit $fail
