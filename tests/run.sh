#!/usr/bin/env bash
# tests/run.sh - runs the whole test suite against one build directory.
#
#	tests/run.sh [BUILD_DIR]		(default: build; make check passes $(BUILD))
#
# Four kinds of test, each optional (a missing directory just has no tests):
#  unit     every $BUILD/tests/t_* binary; each stdout line "ok ..." is a pass,
#           "ok NAME # skip REASON" a skip and "not ok ..." a failure (lines after it
#           that start with 4 spaces belong to it); a binary that fails without a
#           "not ok" line is one failure.
#  golden   every tests/golden/NAME/ with a file "cmd": bash runs cmd and its stdout,
#           stderr and exit status are compared with the files "stdout", "stderr"
#           (absent: not checked) and "status" (absent: 0).  A file "requires" lists
#           paths (relative to the repository, $CORPORA expanded) or "cmd:NAME"
#           commands, one a line; if one is missing the test is skipped.
#  perft    every tests/perft/*.perft, run as vchess-perft --suite FILE, which takes
#           the variant from the suite's "# variant: NAME" line; exit 0 passes.  A
#           line "# requires: PATH" skips the file when PATH is missing.
#  scripts  every executable tests/scripts/*.sh; its stdout lines "ok ...",
#           "not ok ..." and "skip ..." count, and a failing exit without a
#           "not ok" line is one failure.
#
# Every test runs with the repository as its directory, standard input from
# /dev/null, PATH=$BUILD/bin:$PATH, VCHESS_BUILD=$BUILD (absolute), CORPORA (the
# absolute path of the real archives of corpora/MANIFEST) and a private, emptied
# TMPDIR; each has VCHESS_TEST_TIMEOUT seconds (default 300), or more where a script
# asks for it with a line "# test-limit: SECONDS" among its first 40.
#
# The real archives are not part of the repository: make corpora fetches them into
# CORPORA (default corpora/real, relative to the repository).  A test that needs one
# that is not there skips, naming the missing path; the skips that name a path in
# CORPORA are counted, and the summary says how to get the archives.
#
# Environment: REGEN=1 rewrites the golden files instead of comparing (review
# the result with git diff); ONLY=REGEX runs only the tests whose names
# (t_NAME, golden/NAME, perft/FILE, scripts/FILE) match; JOBS=N runs N tests at
# once (default: the number of processors).  Results print in a fixed order.
#
# The last line is exactly "N passed, N failed", with ", N skipped" added when
# something was skipped (the line before says how many of those want the real
# archives); the exit status is 1 when anything failed.

set -u
shopt -s nullglob

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root" || exit 2
build=${1:-build}
case $build in
/*) ;;
*) build=$root/$build ;;
esac
corpora_show=${CORPORA:-corpora/real}
case $corpora_show in
/*) corpora=$corpora_show ;;
*) corpora=$root/$corpora_show ;;
esac
limit=${VCHESS_TEST_TIMEOUT:-300}
njobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
regen=${REGEN:-0}
only=${ONLY:-}

export PATH="$build/bin:$PATH" VCHESS_BUILD="$build" CORPORA="$corpora"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vchess-tests.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'kill $(jobs -p) 2>/dev/null; exit 130' INT TERM

# ---- helpers (run inside the workers) ----------------------------------------------------

# run_limited OUT ERR COMMAND...: runs the command under the time limit with
# stdin from /dev/null.  The group's 2>/dev/null takes bash's own "Aborted"
# notices, which say nothing describe_status does not.
run_limited() {
	local out=$1 err=$2
	shift 2
	if [ "$out" = "$err" ]; then
		{ timeout -k 10 "$limit" "$@" </dev/null >"$out" 2>&1; } 2>/dev/null
	else
		{ timeout -k 10 "$limit" "$@" </dev/null >"$out" 2>"$err"; } 2>/dev/null
	fi
}

# Says why a run with exit status $1 failed.
describe_status() {
	local st=$1
	if ((st == 124 || st == 137)); then
		echo "timed out after $limit s"
	elif ((st > 128)); then
		echo "killed by signal SIG$(kill -l $((st - 128)) 2>/dev/null || echo $((st - 128)))"
	else
		echo "exit status $st"
	fi
}

# Prints its input indented by 4 spaces, at most $1 lines.
indent() {
	head -n "$1" | sed 's/^/    /'
}

# The "not ok" lines of a TAP-like output and the 4-space lines that follow them.
not_ok_lines() {
	awk '/^not ok /{on = 1; print; next} on && /^    /{print; next} {on = 0}' "$1"
}

count() { # count REGEX FILE
	grep -c -- "$1" "$2" || true
}

# Expands $CORPORA / ${CORPORA} in a requirement (the quotes are meant: literal text).
# shellcheck disable=SC2016
expand() {
	local s=$1
	s=${s//'${CORPORA}'/$corpora}
	s=${s//'$CORPORA'/$corpora}
	printf '%s' "$s"
}

# Prints the first requirement (a path, expanded, or cmd:NAME) that is not met,
# from the lines on stdin; returns 1 when all are met.
first_missing() {
	local line req
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line#"${line%%[![:space:]]*}"}
		line=${line%"${line##*[![:space:]]}"}
		[ -z "$line" ] && continue
		case $line in \#*) continue ;; esac
		req=$(expand "$line")
		case $req in
		cmd:*) command -v "${req#cmd:}" >/dev/null 2>&1 || { echo "$req"; return 0; } ;;
		*) [ -e "$req" ] || { echo "$req"; return 0; } ;;
		esac
	done
	return 1
}

# Each worker writes its report to $w.report, its counts "passed failed skipped
# corpora-skipped" to $w.counts, then creates $w.done.  The skips that want the
# real archives are the report's skip lines that name a path in $corpora.
finish() { # finish W PASSED FAILED SKIPPED
	local c=0
	(($4 > 0)) && c=$(grep -F -- "$corpora" "$1.report" | grep -c ': skip \|^skip ' || true)
	echo "$2 $3 $4 $c" >"$1.counts"
	: >"$1.done"
}

run_unit() { # run_unit W BINARY
	local w=$1 bin=$2 name st p f s
	name=$(basename "$bin")
	run_limited "$w.out" "$w.err" "$bin"
	st=$?
	s=$(count '^ok .* # skip' "$w.out")
	p=$(($(count '^ok ' "$w.out") - s))
	f=$(count '^not ok ' "$w.out")
	{
		((f > 0)) && echo "== $name"
		not_ok_lines "$w.out"
		sed -n "s/^ok \(.*\) # skip/$name: skip \1 #/p" "$w.out"
		# exit 1 after "not ok" lines is the normal way to fail; anything else is news
		if ((st != 0 && !(f > 0 && st == 1))); then
			if ((f == 0)); then
				echo "not ok $name: $(describe_status "$st")"
			else
				echo "    $name: $(describe_status "$st")"
			fi
			indent 30 <"$w.err"
		fi
	} >"$w.report"
	((st != 0 && f == 0)) && f=1
	finish "$w" "$p" "$f" "$s"
}

# Compares one golden file; prints the failure, returns 1 on a difference.
golden_diff() { # golden_diff NAME WHAT EXPECTED ACTUAL
	local exp=$3
	[ -f "$exp" ] || exp=/dev/null
	cmp -s "$exp" "$4" && return 0
	echo "    $2 differs:"
	diff -u --label "$1/$2 (expected)" --label "$1/$2 (actual)" "$exp" "$4" | indent 40
	return 1
}

run_golden() { # run_golden W DIR
	local w=$1 dir=${2%/} name miss st want changed=() bad=0
	name=golden/$(basename "$dir")
	if [ -f "$dir/requires" ] && miss=$(first_missing <"$dir/requires"); then
		echo "skip $name: missing $miss" >"$w.report"
		finish "$w" 0 0 1
		return
	fi
	run_limited "$w.out" "$w.err" bash "$dir/cmd"
	st=$?
	want=0
	[ -f "$dir/status" ] && want=$(tr -d '[:space:]' <"$dir/status")
	if [ "$regen" = 1 ]; then
		if ! cmp -s "$w.out" "$dir/stdout" 2>/dev/null; then
			cp "$w.out" "$dir/stdout" && changed+=(stdout)
		fi
		if [ -f "$dir/stderr" ] || [ -s "$w.err" ]; then
			if ! cmp -s "$w.err" "$dir/stderr" 2>/dev/null; then
				cp "$w.err" "$dir/stderr" && changed+=(stderr)
			fi
		fi
		if [ "$st" != "$want" ]; then
			echo "$st" >"$dir/status" && changed+=(status)
		fi
		: >"$w.report"
		((${#changed[@]})) && echo "regen $name: ${changed[*]} changed" >"$w.report"
		((st == 124 || st == 137)) && echo "    warning: cmd timed out" >>"$w.report"
		finish "$w" 1 0 0
		return
	fi
	{
		golden_diff "$name" stdout "$dir/stdout" "$w.out" || bad=1
		if [ -f "$dir/stderr" ]; then
			golden_diff "$name" stderr "$dir/stderr" "$w.err" || bad=1
		fi
		if [ "$st" != "$want" ]; then
			echo "    status: expected $want, got $st ($(describe_status "$st"))"
			bad=1
		fi
	} >"$w.body"
	if ((bad)); then
		{
			echo "not ok $name"
			cat "$w.body"
			# stderr is not compared, but it says why the status or output went wrong
			if [ ! -f "$dir/stderr" ] && [ -s "$w.err" ]; then
				echo "    stderr:"
				indent 10 <"$w.err"
			fi
		} >"$w.report"
		finish "$w" 0 1 0
	else
		: >"$w.report"
		finish "$w" 1 0 0
	fi
}

run_perft() { # run_perft W FILE
	local w=$1 file=$2 name miss st
	name=perft/$(basename "$file")
	if miss=$(sed -n 's/^#[[:space:]]*requires:[[:space:]]*//p' "$file" | first_missing); then
		echo "skip $name: missing $miss" >"$w.report"
		finish "$w" 0 0 1
		return
	fi
	if [ ! -x "$build/bin/vchess-perft" ]; then
		echo "not ok $name: no $build/bin/vchess-perft" >"$w.report"
		finish "$w" 0 1 0
		return
	fi
	run_limited "$w.out" "$w.out" "$build/bin/vchess-perft" --suite "$file"
	st=$?
	if ((st == 0)); then
		: >"$w.report"
		finish "$w" 1 0 0
	else
		{
			echo "not ok $name: $(describe_status "$st")"
			indent 60 <"$w.out"
		} >"$w.report"
		finish "$w" 0 1 0
	fi
}

run_script() { # run_script W FILE
	local w=$1 file=$2 name st p f s own
	name=scripts/$(basename "$file")
	# a script that asks for longer ("# test-limit: SECONDS" in its head) gets it;
	# run_limited and describe_status read this limit
	own=$(head -n 40 "$file" | sed -n 's/^# test-limit: \([0-9][0-9]*\)$/\1/p' | head -n 1)
	local limit=$limit
	[ -n "$own" ] && ((own > limit)) && limit=$own
	run_limited "$w.out" "$w.err" "$file"
	st=$?
	p=$(count '^ok ' "$w.out")
	f=$(count '^not ok ' "$w.out")
	s=$(count '^skip ' "$w.out")
	{
		((f > 0)) && echo "== $name"
		not_ok_lines "$w.out"
		grep '^skip ' "$w.out" | sed "s|^|$name: |"
		if ((st != 0)); then
			if ((f == 0)); then
				echo "not ok $name: $(describe_status "$st")"
			else
				echo "    $name: $(describe_status "$st")"
			fi
			indent 30 <"$w.err"
		fi
	} >"$w.report"
	((st != 0 && f == 0)) && f=1
	finish "$w" "$p" "$f" "$s"
}

# ---- collect the tests ----------------------------------------------------------------------
kinds=() args=() names=()
add() { # add KIND NAME ARG
	if [ -n "$only" ] && ! [[ $2 =~ $only ]]; then
		return
	fi
	kinds+=("$1")
	names+=("$2")
	args+=("$3")
}
for f in "$build"/tests/t_*; do
	[ -f "$f" ] && [ -x "$f" ] && add unit "$(basename "$f")" "$f"
done
for d in tests/golden/*/; do
	[ -f "$d/cmd" ] && add golden "golden/$(basename "$d")" "$d"
done
for f in tests/perft/*.perft; do
	add perft "perft/$(basename "$f")" "$f"
done
for f in tests/scripts/*.sh; do
	[ -f "$f" ] && [ -x "$f" ] && add script "scripts/$(basename "$f")" "$f"
done

# ---- run them, njobs at a time, and report in order ---------------------------------------
n=${#kinds[@]}
passed=0 failed=0 skipped=0 cskipped=0 shown=0

# Prints a report, the corpora's absolute path written as given (corpora/real).
show_report() {
	local text
	[ -s "$1" ] || return 0
	text=$(<"$1")
	printf '%s\n' "${text//"$corpora"/"$corpora_show"}"
}

# Prints the reports of the finished tests that come next in order.
flush() {
	local w p f s c
	while ((shown < n)) && [ -e "$tmp/$shown.done" ]; do
		w=$tmp/$shown
		show_report "$w.report"
		read -r p f s c <"$w.counts"
		passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
		cskipped=$((cskipped + c))
		shown=$((shown + 1))
	done
}

# The order they start in: the longest first, so that no long test starts
# last and runs alone while the other processors idle; by the wall times of
# the build's previous run (test-times.tsv), else by those of a run kept in
# tests/times/ for a fresh build of that name (build, build-san: what CI
# has), and for a test in neither the scripts (where the long tests are)
# before the rest.  Reports keep the fixed order.
start_order() {
	local times=$build/test-times.tsv i
	[ -f "$times" ] || times=tests/times/$(basename "$build").tsv
	{
		for ((i = 0; i < n; i++)); do
			printf '%s\t%s\n' "$i" "${names[i]}"
		done
	} | awk -F '\t' -v times="$times" '
		BEGIN { while ((getline line < times) > 0) { split(line, f, "\t"); t[f[2]] = f[1] } }
		{ w = ($2 in t) ? t[$2] : ($2 ~ /^scripts\// ? 1000 : 0); print w "\t" $1 }' |
		sort -t "$(printf '\t')" -k1,1rn -k2,2n | cut -f 2
}
mapfile -t order < <(start_order)
for i in "${order[@]}"; do
	while (($(jobs -rp | wc -l) >= njobs)); do
		wait -n
		flush
	done
	mkdir -p "$tmp/$i.tmp"
	(
		export TMPDIR=$tmp/$i.tmp
		t0=$EPOCHREALTIME
		"run_${kinds[i]}" "$tmp/$i" "${args[i]}"
		# wall seconds per test, for finding what makes the suite long
		printf '%s\t%s\n' "$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')" \
			"${names[i]}" >"$tmp/$i.time"
	) &
done
wait
flush
# A worker that died without finishing (it should not happen) must not pass unseen.
while ((shown < n)); do
	echo "not ok ${names[shown]}: the test runner lost its result"
	failed=$((failed + 1))
	shown=$((shown + 1))
	flush
done

# The tests by wall time, slowest first (.ci/run prints the head of it);
# the times of the tests not run this time (ONLY) are kept for start_order.
{
	cat "$tmp"/*.time 2>/dev/null
	[ -f "$build/test-times.tsv" ] && sed 's/^/old\t/' "$build/test-times.tsv"
} | awk -F '\t' '$1 != "old" { seen[$2] = 1; print; next } !($3 in seen) { print $2 "\t" $3 }' |
	sort -rn >"$build/test-times.tsv.new" && mv "$build/test-times.tsv.new" "$build/test-times.tsv" || true

if ((cskipped > 0)); then
	get="make corpora"
	[ "$corpora_show" = corpora/real ] || get="make corpora CORPORA=$corpora_show"
	echo "$cskipped skipped: real archives missing from $corpora_show: $get (or $get CORPORA_FROM=DIR; see corpora/MANIFEST)"
fi
line="$passed passed, $failed failed"
((skipped > 0)) && line="$line, $skipped skipped"
echo "$line"
((failed == 0))
