#!/usr/bin/env bash
# tests/bench/run.sh [BUILD_DIR] - times vchess against its peers, side by side, in one run.
#
# Each benchmark runs the vchess command and the peer's command in the same invocation,
# interleaved (v, p, v, p, ...), up to three times each; the table keeps the best wall time
# and the largest peak RSS, both as GNU time reports them (%e and %M).  A command whose three
# runs would take over ROW_LIMIT/2 seconds (30) runs once, and so does a whole row that would
# otherwise take over ROW_LIMIT seconds (60): the table marks such times "(x1)".
# The ratio is peer time / vchess time: above 1 means vchess is faster.
#
# Peers are the Debian packages in /usr/games (fairy-stockfish, stockfish, pgn-extract) and
# gzip; the corpora are the real archives of corpora/MANIFEST in $CORPORA (default
# corpora/real, relative to the repository: make corpora fetches them there).
# Anything missing turns its row into a note.  This script only reports: it asserts nothing
# and exits 0 (node-count mismatches are printed loudly instead).
#
# BUILD_DIR defaults to build-bench; a relative one is looked up from the current directory,
# then from the repository root.  Environment: CORPORA, BENCH_REPS (3), BENCH_ROW_LIMIT (60),
# BENCH_CONVERT_TEXT / BENCH_CONVERT_XML (arguments that ask vchess-convert for text or XML
# output, when its usage cannot be read).

set -u
export LC_ALL=C
PATH="$PATH:/usr/games"

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
ROOT=$(cd "$script_dir/../.." && pwd -P)
CORPORA=${CORPORA:-corpora/real}
case $CORPORA in /*) ;; *) CORPORA="$ROOT/$CORPORA" ;; esac
[ -d "$CORPORA" ] && CORPORA=$(cd "$CORPORA" && pwd -P)

BUILD=${1:-build-bench}
case $BUILD in
/*) ;;
*) if [ -d "$PWD/$BUILD" ]; then BUILD="$PWD/$BUILD"; else BUILD="$ROOT/$BUILD"; fi ;;
esac

REPS=${BENCH_REPS:-3}
ROW_LIMIT=${BENCH_ROW_LIMIT:-60}
TIME=/usr/bin/time

TMP=$(mktemp -d "${TMPDIR:-/tmp}/vchess-bench.XXXXXX") || { echo "bench: mktemp failed"; exit 0; }
trap 'rm -rf "$TMP"' EXIT
trap 'exit 0' INT TERM HUP

VPERFT="$BUILD/bin/vchess-perft"
VVALID="$BUILD/bin/vchess-validate"
VCONV="$BUILD/bin/vchess-convert"
FSF=$(command -v fairy-stockfish 2>/dev/null)
SF=$(command -v stockfish 2>/dev/null)
PGNX=$(command -v pgn-extract 2>/dev/null)
GZIP=$(command -v gzip 2>/dev/null)

NOTES=()
declare -A NOTED
note() { # once each: two rows may share a vchess measurement
	[ -n "${NOTED[$*]:-}" ] && return
	NOTED[$*]=1
	NOTES+=("$*")
}

# ---- measuring ------------------------------------------------------------------------------
# def NAME [--in FILE] [--null] CMD...   defines a measurement (stdin from FILE or /dev/null;
# stdout to $TMP/NAME.out, or to /dev/null with --null; stderr to $TMP/NAME.err).
declare -A CMD IN NULLOUT T M RC N CPU
def() {
	local name=$1
	shift
	IN[$name]=/dev/null
	NULLOUT[$name]=0
	while :; do
		case $1 in
		--in) IN[$name]=$2; shift 2 ;;
		--null) NULLOUT[$name]=1; shift ;;
		*) break ;;
		esac
	done
	CMD[$name]=$(printf '%q ' "$@")
}

run_one() {
	local name=$1 out="$TMP/$1.out" t m rc
	[ "${NULLOUT[$name]}" = 1 ] && out=/dev/null
	eval "local -a argv=(${CMD[$name]})"
	: >"$TMP/time"
	# shellcheck disable=SC2154
	"$TIME" -o "$TMP/time" -f '%e %M %U %S' "${argv[@]}" <"${IN[$name]}" >"$out" 2>"$TMP/$name.err"
	rc=$?
	# GNU time writes "Command exited with non-zero status N" first; the figures come last.
	local cpu
	read -r t m cpu < <(tail -n 1 "$TMP/time" | awk '{print $1, $2, $3 + $4}')
	case $t in *[!0-9.]* | '') t= ;; esac
	case $m in *[!0-9]* | '') m=0 ;; esac
	RC[$name]=$rc
	N[$name]=$((${N[$name]:-0} + 1))
	if [ -n "$t" ]; then
		if [ -z "${T[$name]:-}" ] || awk -v a="$t" -v b="${T[$name]}" 'BEGIN{exit !(a<b)}'; then
			T[$name]=$t
			CPU[$name]=$cpu # user + system seconds of the best run
		fi
	fi
	[ "$m" -gt "${M[$name]:-0}" ] && M[$name]=$m
	return 0
}

# measure NAME...: runs the not yet measured ones interleaved, REPS rounds.  After the first
# round, a command whose REPS runs would take more than ROW_LIMIT/2 seconds runs no more (a
# slow engine perft varies little), and the whole row stops if what is left would still make
# it take more than ROW_LIMIT seconds.
measure() {
	local todo=() keep=() n r est
	for n in "$@"; do
		[ -n "$n" ] && [ -n "${CMD[$n]:-}" ] && [ -z "${N[$n]:-}" ] && todo+=("$n")
	done
	[ ${#todo[@]} -eq 0 ] && return 0
	for n in "${todo[@]}"; do run_one "$n"; done
	est=0
	for n in "${todo[@]}"; do
		if awk -v t="${T[$n]:-0}" -v k="$REPS" -v l="$ROW_LIMIT" 'BEGIN{exit !(t*k>l/2)}'; then
			est=$(awk -v e="$est" -v t="${T[$n]:-0}" 'BEGIN{print e+t}')
		else
			keep+=("$n")
			est=$(awk -v e="$est" -v t="${T[$n]:-0}" -v k="$REPS" 'BEGIN{print e+t*k}')
		fi
	done
	awk -v e="$est" -v l="$ROW_LIMIT" 'BEGIN{exit !(e>l)}' && return 0
	[ ${#keep[@]} -eq 0 ] && return 0
	for ((r = 2; r <= REPS; r++)); do
		for n in "${keep[@]}"; do run_one "$n"; done
	done
}

# ---- the table ------------------------------------------------------------------------------
rss() { [ -n "${1:-}" ] && [ "$1" -gt 0 ] && awk -v k="$1" 'BEGIN{printf "%.1fM", k/1024}' || echo -; }
secs() {
	local n=$1
	[ -z "${T[$n]:-}" ] && { echo "?"; return; }
	if [ "${N[$n]}" -lt "$REPS" ]; then echo "${T[$n]}(x${N[$n]})"; else echo "${T[$n]}"; fi
}

FMT='%-27s %11s  %-30s %12s %7s %9s %9s  %s\n'
header_row() {
	printf "$FMT" benchmark "vchess s" peer "peer s" ratio "v RSS" "peer RSS" notes
	printf "$FMT" --------- -------- ---- ------ ----- ----- -------- -----
}
# row LABEL VNAME PEERLABEL PNAME NOTES   (PNAME empty: peer missing)
row() {
	local label=$1 v=$2 plabel=$3 p=$4 notes=${5:-} vt pt ratio prss
	vt=$(secs "$v")
	if [ -z "$p" ]; then
		printf "$FMT" "$label" "$vt" "$plabel" "peer missing" - "$(rss "${M[$v]:-}")" - "$notes"
		return
	fi
	pt=$(secs "$p")
	ratio=$(awk -v a="${T[$p]:-}" -v b="${T[$v]:-}" \
		'BEGIN{ if (a=="" || b=="") print "?"; else if (b+0==0) print (a+0==0 ? "n/a" : ">"a/0.01); else printf "%.2f", a/b }')
	prss=$(rss "${M[$p]:-}")
	printf "$FMT" "$label" "$vt" "$plabel" "$pt" "$ratio" "$(rss "${M[$v]:-}")" "$prss" "$notes"
}
skip_row() { printf '%-27s %s\n' "$1" "$2"; }

# ---- node counts ----------------------------------------------------------------------------
vcount() { # the count vchess-perft printed: the last line that is a bare number
	grep -E '^[[:space:]]*[0-9]+[[:space:]]*$' "$TMP/$1.out" 2>/dev/null | tail -n 1 | tr -d '[:space:]'
}
ecount() { # the engine's "Nodes searched: N"
	sed -n 's/^Nodes searched: *\([0-9][0-9]*\).*/\1/p' "$TMP/$1.out" 2>/dev/null | tail -n 1
}
uci_in() { # uci_in NAME VARIANT POSITION DEPTH: writes the engine's stdin
	{
		printf 'uci\n'
		[ -n "$2" ] && printf 'setoption name UCI_Variant value %s\n' "$2"
		printf 'position %s\ngo perft %s\nquit\n' "$3" "$4"
	} >"$TMP/$1.in"
	echo "$TMP/$1.in"
}
# check_counts LABEL EXPECTED VNAME [ENGINE_NAME ENGINE_LABEL]...: the notes text, in R
# (functions that add notes set R rather than print, since a $(...) would lose the notes)
check_counts() {
	local label=$1 want=$2 v=$3 got s=""
	shift 3
	got=$(vcount "$v")
	if [ "${RC[$v]:-0}" != 0 ]; then
		s="vchess exit ${RC[$v]}: $(head -n 1 "$TMP/$v.err")"
		note "!!! $label: vchess-perft exited ${RC[$v]}: $(head -n 1 "$TMP/$v.err")"
	elif [ "$got" = "$want" ]; then
		s="nodes $got ok"
	else
		s="!!! MISMATCH vchess=${got:-none} published=$want"
		note "!!! MISMATCH $label: vchess counted ${got:-nothing}, the published count is $want"
	fi
	while [ $# -ge 2 ]; do
		if [ -n "$1" ] && [ -n "${N[$1]:-}" ]; then
			local e
			e=$(ecount "$1")
			if [ "$e" != "$want" ]; then
				s="$s; WARNING $2=${e:-none}"
				note "WARNING $label: $2 counted ${e:-nothing}, expected $want"
			fi
		fi
		shift 2
	done
	R=$s
}

# ---- the header -----------------------------------------------------------------------------
have_corpus() { [ -f "$CORPORA/$1" ]; }
cc_of_build=$(awk '{print $1; exit}' "$BUILD/flags" 2>/dev/null)
opt_of_build=$({ tr " " "\n" <"$BUILD/flags"; } 2>/dev/null | grep -E "^-(O|march|mtune|flto|DNDEBUG)" | sort -u | tr "\n" " ")
engine_id() { [ -n "$1" ] && printf 'quit\n' | "$1" 2>/dev/null | head -n 1; }

echo "vchess benchmarks"
echo "date:      $(date '+%Y-%m-%d %H:%M:%S %z')"
echo "host:      nproc $(nproc 2>/dev/null || echo ?), $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)"
echo "compiler:  $(${cc_of_build:-${CC:-cc}} --version 2>/dev/null | head -n 1) [${opt_of_build% }]"
echo "load:      $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) (1, 5, 15 min; above nproc, timings are noisy)"
echo "build:     $BUILD"
echo "peers:     fairy-stockfish: $( [ -n "$FSF" ] && engine_id "$FSF" || echo missing)"
echo "           stockfish: $( [ -n "$SF" ] && engine_id "$SF" || echo missing)"
echo "           pgn-extract: $( [ -n "$PGNX" ] && "$PGNX" -h 2>&1 | head -n 1 | cut -d: -f1 || echo missing)"
echo "           gzip: $( [ -n "$GZIP" ] && "$GZIP" --version 2>/dev/null | head -n 1 || echo missing)"
if [ -d "$CORPORA" ]; then
	echo "corpora:   $CORPORA"
	for f in standard/lichess-magnus-2018-2022.pgn.gz standard/pgnmentor-10-players.pgn.gz; do
		if have_corpus "$f"; then echo "           found  $f"; else echo "           absent $f (make corpora)"; fi
	done
else
	echo "corpora:   none ($CORPORA is absent: make corpora, see corpora/MANIFEST)"
fi
echo "times: best of $REPS wall-clock runs in seconds, (xN) when a slow command ran only N times;"
echo "RSS: largest peak resident set; ratio: peer time / vchess time (>1: vchess is faster)"
echo
header_row

have_perft=0
[ -x "$VPERFT" ] && have_perft=1
have_valid=0
[ -x "$VVALID" ] && have_valid=1

# ---- 1-3: orthodox perft --------------------------------------------------------------------
# label | fen (empty: start position) | depth | published count
PERFTS=(
	"perft start d6||6|119060324"
	"perft kiwipete d5|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|5|193690690"
	"perft pos3 d5|8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1|5|674624"
	"perft pos4 d5|r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1|5|15833292"
	"perft pos5 d5|rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8|5|89941194"
	# 164075551 belongs to this FEN (chessprogramming.org "Perft Results", position 6); a
	# variant of it with ranks 3-2 written 2NPPN2/PPP1QPPP (nine white pawns) has 113424324.
	"perft pos6 d5|r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10|5|164075551"
)
i=0
for spec in "${PERFTS[@]}"; do
	IFS='|' read -r label fen depth want <<<"$spec"
	i=$((i + 1))
	if [ $have_perft = 0 ]; then
		skip_row "$label" "skipped: $VPERFT not built"
		continue
	fi
	if [ -z "$fen" ]; then
		def "vp$i" "$VPERFT" "$depth"
		pos="startpos"
	else
		def "vp$i" "$VPERFT" --fen "$fen" "$depth"
		pos="fen $fen"
	fi
	fname=''
	sname=''
	if [ -n "$FSF" ]; then fname="fsf$i"; def "$fname" --in "$(uci_in "$fname" "" "$pos" "$depth")" "$FSF"; fi
	# stockfish too on the start position and Kiwipete: issue #20's perft target names both
	if [ $i -le 2 ] && [ -n "$SF" ]; then sname="sf$i"; def "$sname" --in "$(uci_in "$sname" "" "$pos" "$depth")" "$SF"; fi
	measure "vp$i" "$fname"
	check_counts "$label" "$want" "vp$i" "$fname" fairy-stockfish
	row "$label" "vp$i" fairy-stockfish "$fname" "$R"
	if [ $i -le 2 ]; then
		measure "$sname"
		check_counts "$label" "$want" "vp$i" "$sname" stockfish
		row "$label" "vp$i" stockfish "$sname" "$R"
	fi
done

# ---- 4: crazyhouse perft --------------------------------------------------------------------
label="perft crazyhouse start d4"
if [ $have_perft = 0 ]; then
	skip_row "$label" "skipped: $VPERFT not built"
elif ! "$VPERFT" --variant crazyhouse 1 >/dev/null 2>&1; then
	skip_row "$label" "skipped: variant not built"
else
	def vzh "$VPERFT" --variant crazyhouse 4
	fname=
	if [ -n "$FSF" ]; then fname=fsfzh; def fsfzh --in "$(uci_in fsfzh crazyhouse startpos 4)" "$FSF"; fi
	measure vzh "$fname"
	check_counts "$label" 197281 vzh "$fname" fairy-stockfish
	row "$label" vzh fairy-stockfish "$fname" "$R"
fi

# ---- 4b: Capablanca chess perft, 10x8, against the orthodox start -------------------------
# Its notes give vchess's nodes per second here and in the orthodox start row (vp1): the
# speed on a 10x8 board against that on 8x8 (the aim: within a factor of 2).
label="perft capablanca start d5"
if [ $have_perft = 0 ]; then
	skip_row "$label" "skipped: $VPERFT not built"
elif ! "$VPERFT" --variant capablanca 1 >/dev/null 2>&1; then
	skip_row "$label" "skipped: variant not built"
else
	def vcapa "$VPERFT" --variant capablanca 5
	fname=
	if [ -n "$FSF" ]; then fname=fsfcapa; def fsfcapa --in "$(uci_in fsfcapa capablanca startpos 5)" "$FSF"; fi
	measure vcapa "$fname"
	check_counts "$label" 28741319 vcapa "$fname" fairy-stockfish
	speed=$(awk -v a="${T[vcapa]:-}" -v b="${T[vp1]:-}" 'BEGIN{
		if (a+0 <= 0) exit
		s = sprintf("%.1f Mnodes/s", 28741319 / a / 1e6)
		if (b+0 > 0) s = s sprintf(", orthodox %.1f Mnodes/s, ratio %.2f", 119060324 / b / 1e6,
					   (119060324 / b) / (28741319 / a))
		print s }')
	[ -n "$speed" ] && R="$R; $speed"
	row "$label" vcapa fairy-stockfish "$fname" "$R"
fi

# ---- xiangqi and janggi perft: 9x10 boards, the speed against orthodox chess's -----------------
# nodes per second of the start's perft d4 beside those of the orthodox start's d6 (row 1)
nps() { awk -v n="$1" -v t="${T[$2]:-}" 'BEGIN{ if (t>0) printf "%.1fM nodes/s", n/t/1e6 }'; }
for spec in "xiangqi|4|3290240" "janggi|4|1065277"; do
	IFS='|' read -r var depth want <<<"$spec"
	label="perft $var start d$depth"
	if [ $have_perft = 0 ]; then
		skip_row "$label" "skipped: $VPERFT not built"
		continue
	elif ! "$VPERFT" --variant "$var" 1 >/dev/null 2>&1; then
		skip_row "$label" "skipped: variant not built"
		continue
	fi
	def "vx$var" "$VPERFT" --variant "$var" "$depth"
	fname=
	if [ -n "$FSF" ]; then
		fname="fsfx$var"
		def "$fname" --in "$(uci_in "$fname" "$var" startpos "$depth")" "$FSF"
	fi
	measure "vx$var" "$fname"
	check_counts "$label" "$want" "vx$var" "$fname" fairy-stockfish
	R="$R; $(nps "$want" "vx$var"), orthodox d6 $(nps 119060324 vp1)"
	row "$label" "vx$var" fairy-stockfish "$fname" "$R"
done

# ---- 5-7: validation, conversion and position search in the archives ----------------------------------------
vhelp=
[ $have_valid = 1 ] && vhelp=$("$VVALID" -h 2>&1)
vsum=()
case $vhelp in *--summary*) vsum=(--summary) ;; esac
has_j=0
grep -Eq '(^|[^-[:alnum:]])-j([^[:alnum:]]|$)' <<<"$vhelp" && has_j=1

# vnote NAME GAMES: games per second and anything odd about the vchess run, in R
vnote() {
	local n=$1 games=$2 s=""
	if [ -n "$games" ] && [ -n "${T[$n]:-}" ]; then
		s=$(awk -v g="$games" -v t="${T[$n]}" 'BEGIN{ if (t>0) printf "%d games/s", g/t; else printf "%d games", g }')
	fi
	if [ "${RC[$n]:-0}" != 0 ]; then
		s="$s; vchess exit ${RC[$n]}: $(head -n 1 "$TMP/$n.err")"
		note "vchess-validate exited ${RC[$n]} on ${label}: $(head -n 1 "$TMP/$n.err")"
	fi
	R=${s#; }
}
# pnote NAME: pgn-extract's complaints, if any
pnote() {
	local n=$1 k
	[ -z "$n" ] && return
	k=$(grep -c . "$TMP/$n.err" 2>/dev/null)
	[ "${k:-0}" -gt 0 ] && echo "; pgn-extract: $k stderr lines"
}
games_of() { # from vchess's --summary, else by counting Event tags
	local g
	g=$(sed -n 's/^games \([0-9][0-9]*\)$/\1/p' "$TMP/$1.out" 2>/dev/null | head -n 1)
	[ -z "$g" ] && [ -f "$2" ] && g=$(grep -c '^\[Event ' "$2")
	echo "$g"
}

validate_corpus() { # validate_corpus SHORT RELPATH
	local short=$1 rel=$2 gz plain games pn
	gz="$CORPORA/$rel"
	label="validate $short (-j 1)"
	if ! have_corpus "$rel"; then
		skip_row "$label" "skipped: corpus absent ($rel)"
		return 1
	fi
	if [ $have_valid = 0 ]; then
		skip_row "$label" "skipped: $VVALID not built"
		return 1
	fi
	plain="$TMP/$short.pgn"
	if ! gzip -dc "$gz" >"$plain" 2>/dev/null; then
		skip_row "$label" "skipped: cannot decompress $rel"
		return 1
	fi
	# one worker: the per-core comparison the targets are about (-j 2 below)
	local j1=()
	[ $has_j = 1 ] && j1=(-j 1)
	def "v_$short" "$VVALID" "${j1[@]}" --quiet "${vsum[@]}" "$plain"
	def "vgz_$short" "$VVALID" "${j1[@]}" --quiet "${vsum[@]}" "$gz"
	pn=
	if [ -n "$PGNX" ]; then
		pn="p_$short"
		def "$pn" --null "$PGNX" -r -s --quiet "$plain"
	fi
	measure "v_$short" "$pn"
	games=$(games_of "v_$short" "$plain")
	vnote "v_$short" "$games"
	row "$label" "v_$short" "pgn-extract -r" "$pn" "$R$(pnote "$pn")"

	label="validate $short .gz (-j 1)"
	local gn=
	[ -n "$GZIP" ] && { gn="gz_$short"; def "$gn" --null "$GZIP" -dc "$gz"; }
	measure "vgz_$short" "$gn"
	vnote "vgz_$short" "$games"
	row "$label" "vgz_$short" "gzip -dc >/dev/null" "$gn" "$R"

	local pgn=
	if [ -n "$GZIP" ] && [ -n "$PGNX" ]; then
		pgn="pgz_$short"
		# shellcheck disable=SC2016 # sh expands them
		def "$pgn" --null sh -c '"$1" -dc "$2" | "$3" -r -s --quiet' sh "$GZIP" "$gz" "$PGNX"
	fi
	measure "$pgn"
	R=; [ -n "${T[vgz_$short]:-}" ] && R=$(awk -v g="$games" -v t="${T[vgz_$short]}" 'BEGIN{ if (g!="" && t>0) printf "%d games/s", g/t }')
	row "$label" "vgz_$short" "gzip -dc | pgn-extract -r" "$pgn" "$R$(pnote "$pgn")"
	return 0
}

lichess_ok=0
validate_corpus lichess standard/lichess-magnus-2018-2022.pgn.gz && lichess_ok=1
validate_corpus pgnmentor standard/pgnmentor-10-players.pgn.gz
# the pgnmentor copy is no longer needed; the lichess one is, for -j and vchess-convert
rm -f "$TMP/pgnmentor.pgn"

# 6: threads
# The first two processors this script may run on, or nothing (no taskset, or one processor).
two_cpus() {
	command -v taskset >/dev/null 2>&1 || return 0
	local list cpus=() part a b
	list=$(taskset -cp $$ 2>/dev/null | sed 's/.*: *//')
	for part in ${list//,/ }; do
		a=${part%-*} b=${part#*-}
		while [ "$a" -le "$b" ] && [ ${#cpus[@]} -lt 2 ]; do cpus+=("$a"); a=$((a + 1)); done
	done
	[ ${#cpus[@]} -eq 2 ] && echo "${cpus[0]} ${cpus[1]}"
}
# core_balance TA TB A B: -j 1's best time on each processor, and a warning when they are
# over 5% apart.  (No corrected ratio: each figure is the best of its own runs, taken at
# different moments of a host whose speed moves, and a ratio made of them can pass 2.)
core_balance() {
	awk -v a="$1" -v b="$2" -v ca="$3" -v cb="$4" 'BEGIN{
		if (a == "" || b == "" || a <= 0 || b <= 0) { print "cores ?"; exit }
		printf "-j 1 on cpu%s %.2f s, on cpu%s %.2f s", ca, a, cb, b
		d = a > b ? a / b : b / a
		if (d > 1.05)
			printf " (%.0f%% apart: the processors ran unequally, and the ratio shows the host more than the threads)", 100 * (d - 1)
	}'
}
label="validate lichess -j 2"
if [ $have_valid = 0 ]; then
	skip_row "$label" "skipped: $VVALID not built"
elif [ $has_j = 0 ]; then
	skip_row "$label" "skipped: no -j yet"
elif [ $lichess_ok = 0 ]; then
	skip_row "$label" "skipped: corpus absent"
else
	# the archive three times over: at about a second a run, the timer's 10 ms is 1%
	# of the ratio rather than 3%
	cat "$TMP/lichess.pgn" "$TMP/lichess.pgn" "$TMP/lichess.pgn" >"$TMP/lichess3.pgn"
	def vj2 "$VVALID" -j 2 --quiet "${vsum[@]}" "$TMP/lichess3.pgn"
	def vj1 "$VVALID" -j 1 --quiet "${vsum[@]}" "$TMP/lichess3.pgn"
	# -j 1 held to each of the two processors in turn: a virtual machine's
	# processors may run at different speeds for a while, and the ratio then
	# says more of the host than of the threads
	read -r cpu_a cpu_b < <(two_cpus)
	if [ -n "$cpu_b" ]; then
		def vj1a taskset -c "$cpu_a" "$VVALID" -j 1 --quiet "${vsum[@]}" "$TMP/lichess3.pgn"
		def vj1b taskset -c "$cpu_b" "$VVALID" -j 1 --quiet "${vsum[@]}" "$TMP/lichess3.pgn"
	fi
	measure vj2 vj1 ${cpu_b:+vj1a vj1b}
	games=$(games_of vj2 "$TMP/lichess3.pgn")
	rm -f "$TMP/lichess3.pgn"
	vnote vj2 "$games"
	# the processor time (user + system) per game of both, as the target asks
	R="$R; cpu/game $(awk -v g="$games" -v a="${CPU[vj2]:-}" -v b="${CPU[vj1]:-}" \
		'BEGIN{ if (g>0 && a!="" && b!="") printf "%.1f us (-j 2) vs %.1f us (-j 1)", a*1e6/g, b*1e6/g; else print "?" }')"
	[ -n "$cpu_b" ] && R="$R; $(core_balance "${T[vj1a]:-}" "${T[vj1b]:-}" "$cpu_a" "$cpu_b")"
	row "$label" vj2 "vchess-validate -j 1" vj1 "$R"
fi

# 6b: the lichess variants whose rules are not orthodox (atomic, antichess, king of the
# hill, three-check, racing kings, horde) against orthodox chess, in plies per second at
# -j 1, like with like: the games of those variants in the lichess sample against the
# sample's own orthodox games ("From Position": the same site, clocks and comments), each repeated to
# weigh enough to time (1,000 and 200 copies, about a second each: at a fifth of that, GNU
# time's 10 ms steps moved the ratio by several per cent; the variants' compilation weighs
# little).
# The ratio is variant plies/s over orthodox plies/s.
label="validate lichess variants"
lv=variant/lichess-other-variants.pgn.gz
if [ $have_valid = 0 ] || [ ${#vsum[@]} = 0 ]; then
	skip_row "$label" "skipped: no vchess-validate --summary"
elif ! have_corpus "$lv"; then
	skip_row "$label" "skipped: corpus absent ($lv)"
else
	# pick GAMES REGEX: the games whose Variant tag matches REGEX (lower case)
	pick() {
		gzip -dc "$CORPORA/$lv" | awk -v re="$1" '
			/^\[Variant "/ { keep = tolower($0) ~ re }
			/^\[Event / { if (buf != "" && keep) printf "%s", buf; buf = ""; keep = 0 }
			{ buf = buf $0 "\n" }
			END { if (buf != "" && keep) printf "%s", buf }'
	}
	pick 'atomic|antichess|king of the hill|three-check|racing kings|horde' >"$TMP/lvar1.pgn"
	pick '"from position"' >"$TMP/lstd1.pgn"
	: >"$TMP/lvar.pgn"
	: >"$TMP/lstd.pgn"
	for i in $(seq 1000); do cat "$TMP/lvar1.pgn" >>"$TMP/lvar.pgn"; done
	for i in $(seq 200); do cat "$TMP/lstd1.pgn" >>"$TMP/lstd.pgn"; done
	def v_lvar "$VVALID" -j 1 --quiet "${vsum[@]}" "$TMP/lvar.pgn"
	def v_lstd "$VVALID" -j 1 --quiet "${vsum[@]}" "$TMP/lstd.pgn"
	measure v_lvar v_lstd
	pv=$(sed -n 's/^plies \([0-9]*\)$/\1/p' "$TMP/v_lvar.out" | head -n 1)
	po=$(sed -n 's/^plies \([0-9]*\)$/\1/p' "$TMP/v_lstd.out" | head -n 1)
	read -r rv ro ratio < <(awk -v pv="${pv:-0}" -v tv="${T[v_lvar]:-0}" -v po="${po:-0}" -v to="${T[v_lstd]:-0}" \
		'BEGIN { a = tv > 0 ? pv / tv : 0; b = to > 0 ? po / to : 0; printf "%d %d %.2f\n", a, b, (b > 0 ? a / b : 0) }')
	printf "$FMT" "$label" "$(secs v_lvar)" "its orthodox games" "$(secs v_lstd)" "$ratio" \
		"$(rss "${M[v_lvar]:-}")" "$(rss "${M[v_lstd]:-}")" "$rv vs $ro plies/s (target: ratio >= 0.80)"
fi

# 7: conversion
label="convert lichess"
if [ ! -x "$VCONV" ]; then
	skip_row "$label" "skipped: no vchess-convert yet"
elif [ $lichess_ok = 0 ]; then
	skip_row "$label" "skipped: corpus absent"
else
	chelp=$("$VCONV" -h 2>&1)
	ctext=() cxml=()
	if [ -n "${BENCH_CONVERT_TEXT:-}${BENCH_CONVERT_XML:-}" ]; then
		read -r -a ctext <<<"${BENCH_CONVERT_TEXT:-}"
		read -r -a cxml <<<"${BENCH_CONVERT_XML:-}"
	elif grep -q -- '--to' <<<"$chelp"; then
		ctext=(--to text) cxml=(--to xml)
	elif grep -Eq '(^|[^-[:alnum:]])-t([^[:alnum:]]|$)' <<<"$chelp"; then
		ctext=(-t text) cxml=(-t xml)
	elif grep -q -- '--format' <<<"$chelp"; then
		ctext=(--format text) cxml=(--format xml)
	elif grep -Eq '(^|[^-[:alnum:]])-f([^[:alnum:]]|$)' <<<"$chelp"; then
		ctext=(-f text) cxml=(-f xml)
	fi
	LP="$TMP/lichess.pgn"
	pn=''
	pj=''
	if [ -n "$PGNX" ]; then
		pn=p_san; def p_san --null "$PGNX" -s --quiet "$LP"
		pj=p_json; def p_json --null "$PGNX" -s --quiet --json "$LP"
	fi
	cnote() {
		R=
		[ "${RC[$1]:-0}" = 0 ] && return
		R="vchess exit ${RC[$1]}: $(head -n 1 "$TMP/$1.err")"
		note "vchess-convert exited ${RC[$1]} ($2): $(head -n 1 "$TMP/$1.err")"
	}
	# one thread, as pgn-extract has: like with like (-j 2 is the validation row's)
	[ $has_j = 1 ] && ctext+=(-j 1) && [ ${#cxml[@]} -gt 0 ] && cxml+=(-j 1)
	def c_text --null "$VCONV" "${ctext[@]}" "$LP"
	measure c_text "$pn"
	cnote c_text text
	row "convert lichess text->text" c_text "pgn-extract (SAN)" "$pn" "$R"
	if [ ${#cxml[@]} -eq 0 ]; then
		skip_row "convert lichess text->xml" \
			"skipped: cannot tell from vchess-convert -h how to ask for XML (set BENCH_CONVERT_XML)"
	else
		def c_xml --null "$VCONV" "${cxml[@]}" "$LP"
		measure c_xml "$pj"
		cnote c_xml xml
		row "convert lichess text->xml" c_xml "pgn-extract --json" "$pj" "$R"
		# XML in: the same games as XML, read back to text, against pgn-extract
		# converting them from text (target: ratio >= 1)
		if "$VCONV" "${cxml[@]}" -o "$TMP/lichess.xml" "$LP" 2>/dev/null; then
			def c_xmlin --null "$VCONV" "${ctext[@]}" "$TMP/lichess.xml"
			measure c_xmlin "$pn"
			cnote c_xmlin xml-in
			row "convert lichess xml->text" c_xmlin "pgn-extract (SAN, from text)" "$pn" \
				"${R:+$R; }target: ratio >= 1"
			rm -f "$TMP/lichess.xml"
		else
			skip_row "convert lichess xml->text" "skipped: cannot write the XML"
		fi
	fi
	# 7b: the games that reach a position, at any ply: pgn-extract -x finds those that
	# reach the position its line of moves reaches (the Spanish opening); both must
	# find as many games
	printf '1. e4 e5 2. Nf3 Nc6 3. Bb5\n' >"$TMP/ruy.txt"
	px=''
	if [ -n "$PGNX" ]; then
		px=p_pos
		def p_pos "$PGNX" -s --quiet -x"$TMP/ruy.txt" "$LP"
	fi
	def c_pos "$VCONV" "${ctext[@]}" --select \
		'position=r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b' "$LP"
	measure c_pos "$px"
	cnote c_pos position
	vg=$(grep -c '^\[Event ' "$TMP/c_pos.out" 2>/dev/null)
	R="${R:+$R; }$vg games"
	if [ -n "$px" ]; then
		pg=$(grep -c '^\[Event ' "$TMP/p_pos.out" 2>/dev/null)
		[ "$pg" = "$vg" ] || { R="$R; !!! pgn-extract finds $pg"; note "!!! position search: vchess finds $vg games, pgn-extract -x $pg"; }
	fi
	row "select position lichess" c_pos "pgn-extract -x" "$px" "$R"
fi

# 7b: repeated games, one thread against pgn-extract -D (both write the other games to
# /dev/null); then the memory of the table of keys as the archive grows tenfold: the same
# archive given ten times (every game of copies 2 to 10 is a repeat), against once
label="dupes lichess (-j 1)"
if [ ! -x "$VCONV" ] || ! "$VCONV" -h 2>&1 | grep -q -- '--no-duplicates'; then
	skip_row "$label" "skipped: no vchess-convert --no-duplicates"
elif [ $lichess_ok = 0 ]; then
	skip_row "$label" "skipped: corpus absent"
else
	LP="$TMP/lichess.pgn"
	pd=
	[ -n "$PGNX" ] && { pd=p_dup; def p_dup --null "$PGNX" -D -s --quiet "$LP"; }
	def c_dup --null "$VCONV" -j 1 -D "$LP"
	measure c_dup "$pd"
	R=$(sed -n 's/^vchess-convert: \([0-9]*\) repeats\{0,1\} .*/\1 repeats/p' "$TMP/c_dup.err" | head -n 1)
	row "$label" c_dup "pgn-extract -D" "$pd" "$R (target: ratio >= 3)"
	label="dupes lichess x10 memory"
	def c_dup10 --null "$VCONV" -j 1 -D "$LP" "$LP" "$LP" "$LP" "$LP" "$LP" "$LP" "$LP" "$LP" "$LP"
	measure c_dup10
	R=$(awk -v a="${M[c_dup10]:-0}" -v b="${M[c_dup]:-0}" \
		'BEGIN { if (b > 0) printf "peak RSS x10 / x1 = %.2f (target: flat)", a / b }')
	printf "$FMT" "$label" "$(secs c_dup10)" "the same, x1" "$(secs c_dup)" \
		"$(awk -v a="${T[c_dup]:-0}" -v b="${T[c_dup10]:-0}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "?" }')" \
		"$(rss "${M[c_dup10]:-}")" "$(rss "${M[c_dup]:-}")" "$R"
	# openings: the text output with ECO and Opening tags, against pgn-extract -e with its
	# own list (eco.pgn), one thread each
	ECOPGN=/usr/share/pgn-extract/eco.pgn
	if ! grep -q -- '--add-eco' <<<"$chelp"; then
		skip_row "add-eco lichess" "skipped: no vchess-convert --add-eco yet"
	else
		pe=''
		[ -n "$PGNX" ] && [ -f "$ECOPGN" ] && pe=p_eco && def p_eco --null "$PGNX" -s --quiet \
			-e"$ECOPGN" "$LP"
		def c_eco --null "$VCONV" "${ctext[@]}" --add-eco "$LP"
		measure c_eco "$pe"
		cnote c_eco add-eco
		row "add-eco lichess" c_eco "pgn-extract -e" "$pe" "$R"
	fi
fi

# ---- Io Chess: perft, and validating 1,000 random games (no peer plays Io Chess) ------------
io_perft() { # io_perft LABEL NAME DEPTH COUNT [FEN]
	local label=$1 name=$2 depth=$3 want=$4 fen=${5:-}
	if [ $have_perft = 0 ]; then
		skip_row "$label" "skipped: $VPERFT not built"
		return
	elif ! "$VPERFT" --variant io-chess 1 >/dev/null 2>&1; then
		skip_row "$label" "skipped: variant not built"
		return
	fi
	if [ -n "$fen" ]; then
		def "$name" "$VPERFT" --variant io-chess --fen "$fen" "$depth"
	else
		def "$name" "$VPERFT" --variant io-chess "$depth"
	fi
	measure "$name"
	check_counts "$label" "$want" "$name"
	[ -n "${T[$name]:-}" ] && R="$R; $(awk -v n="$want" -v t="${T[$name]}" \
		'BEGIN{ if (t>0) printf "%.1fM nodes/s", n/t/1e6 }')"
	row "$label" "$name" "(none)" "" "$R"
}
io_perft "perft io-chess start d3" vio3 3 2329095
# a middle game whose walls stand near both kings: every move is tested
io_perft "perft io-chess walls d3" viom 3 6716894 \
	'grs(cn)2bk1b1n1srg/2n1(nn)3w>=6/(sc)3p3p1p5/1w|7(sc)1(NN)1(MN)~2/1=1q1p10/1p1pB1pp3p1p1(cn)/2p6p4pp/p11p3/5P5P4/6P8P/P1PPP7P3/16/8P1S5/1P1S1(SC)1P1P1(CN)1PPW|/W>=7KG(SC)3=/GR1(CN)N2Q1(mn)~1N2R1 w - - 2 36'

# 1,000 seeded random games of 100 plies, written by the t_io test binary (make tests)
label="validate io-chess 1000x100"
TIO=
for d in "$BUILD" "$ROOT/build"; do [ -x "$d/tests/t_io" ] && { TIO="$d/tests/t_io"; break; }; done
if [ ! -x "$VVALID" ]; then
	skip_row "$label" "skipped: $VVALID not built"
elif [ -z "$TIO" ]; then
	skip_row "$label" "skipped: no tests/t_io (make tests)"
elif ! "$TIO" --games 1000 --plies 100 --seed 2024 >"$TMP/io-games.pgn" 2>/dev/null; then
	skip_row "$label" "skipped: $TIO --games failed"
else
	def vio_games "$VVALID" --summary "$TMP/io-games.pgn"
	measure vio_games
	R=
	vnote vio_games "$(games_of vio_games "$TMP/io-games.pgn")"
	grep -q '^invalid 0$' "$TMP/vio_games.out" || R="$R; !!! some games invalid"
	row "$label" vio_games "(none)" "" "$R"
fi

# ---- #20 target 3: every variant at orthodox speed ------------------------------------------
# Validation plies per second at -j 1 on seeded random games (t_genval --write san, 200 plies),
# each side's start-up (its time on the file's first game alone) taken out
# of each variant: 10,000 games each (Io Chess 3,000: its games are slower to make and to
# read), so that every run takes a few tenths of a second and GNU time's 10 ms steps move a
# ratio by a few per cent at most (at 2,000 games orthodox chess took 0.06 s, and every
# ratio came out about 12% low), beside orthodox chess's random games made the same way: like with like
# (random games capture and check more than real ones).  Target: ratio >= 0.50 (Io Chess,
# four times the board: 0.25).
TGV=
for d in "$BUILD" "$ROOT/build"; do [ -x "$d/tests/t_genval" ] && { TGV="$d/tests/t_genval"; break; }; done
vrate() { # vrate NAME [START]: plies per second of a --summary run, START's time taken out
	awk -v p="$(sed -n 's/^plies \([0-9]*\)$/\1/p' "$TMP/$1.out" | head -n 1)" -v t="${T[$1]:-0}" \
		-v s="${T[${2:-none}]:-0}" 'BEGIN { t -= s; if (t > 0) printf "%d", p / t; else print 0 }'
}
if [ ! -x "$VVALID" ] || [ ${#vsum[@]} = 0 ]; then
	skip_row "validate random variants" "skipped: no vchess-validate --summary"
elif [ -z "$TGV" ]; then
	skip_row "validate random variants" "skipped: no tests/t_genval (make tests)"
else
	for var in chess crazyhouse sc-chess schizochess sico io-chess; do
		ng=10000
		[ "$var" = io-chess ] && ng=3000
		"$TGV" --variant "$var" --games "$ng" --plies 200 --seed 20 --write san \
			>"$TMP/rnd-$var.pgn" 2>/dev/null
		def "vr_$var" "$VVALID" -j 1 --quiet "${vsum[@]}" "$TMP/rnd-$var.pgn"
		# start-up (the variant compiled: 40 ms for Io Chess, 1 ms for orthodox
		# chess): the same command on the first game alone, taken out
		awk '/^\[Event / && n++ { exit } { print }' "$TMP/rnd-$var.pgn" >"$TMP/rnd1-$var.pgn"
		def "vr1_$var" "$VVALID" -j 1 --quiet "${vsum[@]}" "$TMP/rnd1-$var.pgn"
	done
	measure vr_chess vr1_chess
	orth=$(vrate vr_chess vr1_chess)
	for var in crazyhouse sc-chess schizochess sico io-chess; do
		measure "vr_$var" "vr1_$var"
		label="validate random $var"
		rate=$(vrate "vr_$var" "vr1_$var") target=0.50
		[ "$var" = io-chess ] && target=0.25
		ratio=$(awk -v a="$rate" -v b="$orth" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
		grep -q '^invalid 0$' "$TMP/vr_$var.out" || note "!!! $label: some random games invalid"
		printf "$FMT" "$label" "$(secs "vr_$var")" "orthodox random games" "$(secs vr_chess)" \
			"$ratio" "$(rss "${M[vr_$var]:-}")" "$(rss "${M[vr_chess]:-}")" \
			"$rate vs $orth plies/s, start-up ${T[vr1_$var]:-?} vs ${T[vr1_chess]:-?} s taken out (target: ratio >= $target)"
	done
fi

# ---- the web page: 1,000 lichess games in headless chromium (no peer) ----------------------
# Its size, the time to write it, the first paint and a step, as the browser reports them.
label="viewer page lichess 1000"
vm=$(cd "$ROOT" && PATH="$BUILD/bin:$PATH" VCHESS_BUILD="$BUILD" CORPORA="$CORPORA" \
	VIEWER_PART=measure bash tests/scripts/viewer.sh 2>&1 | grep -E '^(ok|not ok|skip) viewer' | head -n 1)
case $vm in
"ok viewer-measure "*) printf '%-27s %s\n' "$label" "${vm#ok viewer-measure }" ;;
*) skip_row "$label" "${vm:-no result from tests/scripts/viewer.sh}" ;;
esac

if [ ${#NOTES[@]} -gt 0 ]; then
	echo
	printf '%s\n' "${NOTES[@]}"
fi
echo
echo "(a pipeline's RSS is that of its largest process; ratios from times under 0.05 s are noise)"
exit 0
