#!/usr/bin/env bash
# convert-damaged.sh - "no data loss, proven": vchess-convert on damaged archives.
#
# Builds, in $TMPDIR and deterministically (fixed texts, fixed-seed generators),
# damaged archives out of the good games that ship in corpora/ (split one game a
# piece; the pieces of each file must be one valid game each and convert to what the
# whole file converts to), interleaved with
#   bad games   an illegal move, a piece letter changed, a square off the board, an
#               unclosed comment, an unclosed variation (with and without a result), a
#               bad tag line (inside the tags, and as the first line of the game, also
#               right after a game that has no result), an illegal crazyhouse drop
#   garbage     regions of random binary bytes, of NUL bytes, of random text, of text
#               that looks like moves, between games
#   separators  empty lines, lines of blanks, CRLF lines
#   truncation  archives cut mid-tag (in a value, in a name), mid-move, mid-comment;
#               a .gz cut in its deflate data, in its header and before its trailer
# and checks, byte for byte (d1-d4.pgn: 4 archives read in one run):
#   - --rejects FILE: every good game comes out unchanged, i.e. as it converts alone;
#     every bad game and every garbage region is in the rejects file exactly as
#     written (plus the line end and empty line the format adds), in order; the
#     non-blank bytes in are exactly those of the good games plus those of the
#     rejects; games in = out + rejected, each count as built; exit status 1; each
#     bad game and garbage region gets one positioned diagnostic
#     "vchess-convert: FILE:LINE:COL: error: game N ..." with the right number and a
#     line inside its own text, the good games none, and the summary line counts
#     them; the output converts to itself; a pipe on standard input reads the same.
#   - --keep-broken: every game but the garbage comes out, each as it converts alone
#     with --keep-broken; the garbage, and only it, goes to the rejects file.
#   - neither option: the good games come out; the summary counts the rest.
#   - the cut .gz: exit 2 with "truncated gzip data"; what was decoded before the
#     cut handled as the same bytes from a plain file, nothing lost; the next input
#     still converted.
#   - b6.pgn, several MiB (DAMAGED_REPS, default 4, times all the good games, and
#     garbage regions of 1.5 MB on one line and of 1.2 MB): the same checks from a
#     file, a pipe and gzip, so that games straddle the reader's reads.
#   - writing to /dev/full (stdout, -o, --rejects, -z) exits 2 with a message.
# A first tag line that is broken ("[Date 2026.11.29]") used to cut its game into
# garbage and a game that validated without that tag (or, after a game with no
# result, to end that game with an error); lib/archive/pgn_read.c now starts a game there.
set -u
export LC_ALL=C
T=${TMPDIR:-/tmp}/convert-damaged
case $T in
*[[:space:]]*)
	echo "skip convert-damaged # TMPDIR has blanks: this test lists files one a line"
	exit 0
	;;
esac
rm -rf "$T"
mkdir -p "$T/good" "$T/seg" || exit 2

if ! command -v vchess-convert >/dev/null 2>&1 || ! command -v vchess-validate >/dev/null 2>&1; then
	echo "not ok convert-damaged: vchess-convert or vchess-validate not in PATH"
	exit 1
fi

pass() { echo "ok $*"; }
fail() { echo "not ok $*"; }
detail() { sed 's/^/    /' | head -n "${1:-12}"; }
# non-blank bytes of the files (blank: the bytes the reader skips between games)
nonblank() { cat "$@" | tr -d ' \t\n\r\f\v' | wc -c; }
# runs a command in $T, so that messages name the archives without a directory
in_t() { (cd "$T" && "$@"); }
# the canonical conversion of one file alone (its output only)
conv_alone() { vchess-convert "$@" 2>/dev/null; }

# ---- 1. the good games, one a piece ---------------------------------------------------------
SOURCES="corpora/chess/example.pgn corpora/chess/readings.pgn corpora/chess/convert-variants.pgn
corpora/chess/convert-bytes.pgn corpora/crazyhouse/drop-mate.pgn corpora/crazyhouse/promoted.pgn
corpora/sc-chess/asai-problem.pgn corpora/sc-chess/en-passant.pgn corpora/sc-chess/exchange.pgn
corpora/sc-chess/first-rank.pgn corpora/sc-chess/promotion.pgn corpora/sc-chess/self-capture.pgn
corpora/schizochess/games.pgn corpora/sico/mechanics.pgn corpora/sico/multiplayer.pgn
corpora/sico/setups.pgn corpora/io/sample.pgn corpora/io/mechanics.pgn"

# Splits an archive into its games, one file PREFIX.NNN each (a leading UTF-8 BOM is
# dropped: only the start of an input may have one); prints "FILE KIND RESULT" for
# each, KIND the first line's (tag, esc or move) and RESULT 1 when the game's last
# line ends with a result.  A game starts at a tag or escape line after movetext,
# or at a move number after a line that ends with a result.
# shellcheck disable=SC2016 # awk, not shell
SPLIT='
function flush() {
	if (n == 0) return
	f = sprintf("%s.%03d", prefix, ++k)
	for (i = 1; i <= n; i++) printf "%s\n", buf[i] > f
	close(f)
	print f, kind, (lastres ? 1 : 0)
	n = 0; moves = 0
}
{
	line = $0
	if (NR == 1) sub(/^\357\273\277/, "", line)
	t = line; sub(/\r$/, "", t)
	blank = (t ~ /^[ \t]*$/)
	istag = (t ~ /^[ \t]*\[[ \t]*[A-Za-z0-9_+#=:-]+[ \t]*"/)
	isesc = (t ~ /^%/)
	ismove = (t ~ /^[0-9]+\./)
	if (!blank) {
		if (((istag || isesc) && moves) || (ismove && moves && lastres)) flush()
		if (n == 0) kind = istag ? "tag" : isesc ? "esc" : "move"
		if (!istag && !isesc) moves = 1
		lastres = (t ~ /(^|[ \t])(1-0|0-1|1\/2-1\/2|\*)[ \t]*$/)
	}
	if (n > 0 || !blank) buf[++n] = line
}
END { flush() }'

G_FILE=() G_KIND=() G_RES=()
nsrc=0
for src in $SOURCES; do
	if [ ! -f "$src" ]; then
		echo "skip split-$src # absent"
		continue
	fi
	b=$T/good/$(basename "$(dirname "$src")")-$(basename "$src" .pgn)
	awk -v prefix="$b" "$SPLIT" "$src" >"$b.list"
	conv_alone "$src" >"$b.whole"
	: >"$b.cat"
	n=0
	while read -r f kind res; do
		conv_alone "$f" >"$f.conv"
		cat "$f.conv" >>"$b.cat"
		n=$((n + 1))
	done <"$b.list"
	# as many valid games as pieces, and no piece is empty: one valid game each
	sum=$(cut -d ' ' -f 1 "$b.list" | tr '\n' '\0' | xargs -0 vchess-validate --summary 2>&1)
	if grep -qx "games $n" <<<"$sum" && grep -qx "valid $n" <<<"$sum" && cmp -s "$b.whole" "$b.cat"; then
		nsrc=$((nsrc + 1))
		while read -r f kind res; do
			G_FILE+=("$f") G_KIND+=("$kind") G_RES+=("$res")
		done <"$b.list"
	else
		fail "split $src: its $n pieces are not one valid game each, converting as in the file"
	fi
done
NGOOD=${#G_FILE[@]}
if ((NGOOD < 8)); then
	fail "good games: only $NGOOD found in corpora/"
	exit 1
fi
pass "split: $NGOOD good games from $nsrc archives, each converts alone as in its archive"

# ---- the bad games and the garbage ------------------------------------------------------------
# bad KIND N: a broken game; N makes its names unique.  Each starts with a tag line
# (a broken or cut one for bad-first-tag and cut-in-tag-name) and ends with a line
# end, but those cut at the end of an archive; OPEN=1 when it does not end at a line
# with a result.
bad() {
	local e="[Event \"Damaged $2: $1\"]" w="[White \"Bad$2\"]"
	OPEN=0
	case $1 in
	illegal-move) printf '%s\n%s\n[Black "X"]\n[Result "*"]\n\n1. e4 e5 2. Ke3 Nc6 *\n' "$e" "$w" ;;
	piece-letter) printf '%s\n%s\n[Black "X"]\n[Result "*"]\n\n1. e4 e5 2. Bf3 Nc6 *\n' "$e" "$w" ;;
	off-board)
		printf '%s\n%s\n[Black "X"]\n[Result "*"]\n\n1. d4 d5 2. Nf3 Nf6 3. Bi4 e6 *\n' "$e" "$w" ;;
	unclosed-comment)
		OPEN=1
		printf '%s\n%s\n[Black "X"]\n[Result "*"]\n\n1. e4 {a comment that\nnever ends 2. d4 d5 *\n' \
			"$e" "$w" ;;
	unclosed-variation)
		OPEN=1
		printf '%s\n%s\n[Black "X"]\n[Result "*"]\n\n1. e4 e5 (1... c5 2. Nf3 d6\n3. d4 cxd4\n' \
			"$e" "$w" ;;
	result-in-variation)
		OPEN=1
		printf '%s\n%s\n[Black "X"]\n[Result "*"]\n\n1. e4 e5 (1... c5 2. Nf3 d6 *\n' "$e" "$w" ;;
	bad-tag)
		printf '%s\n[White "Bad%s"\n[Black X]\n[Result "1-0"]\n\n%s\n' "$e" "$2" \
			'1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0' ;;
	bad-first-tag)
		# the first tag line is broken: it still starts the game
		printf '[Date 2026.11.29]\n%s\n%s\n[Black "X"]\n[Result "0-1"]\n\n%s\n' "$e" "$w" \
			'1. f3 e5 2. g4 Qh4# 0-1' ;;
	illegal-drop)
		printf '%s\n%s\n[Black "X"]\n[Variant "Crazyhouse"]\n[Result "*"]\n\n%s\n' "$e" "$w" \
			'1. e4 d5 2. exd5 Qxd5 3. Nc3 Q@e3 4. Nf3 *' ;;
	cut-mid-tag) OPEN=1 && printf '%s\n%s\n[Site "Somewhere in the mid' "$e" "$w" ;;
	cut-in-tag-name) OPEN=1 && printf '[Eve' ;;
	cut-mid-move) OPEN=1 && printf '%s\n%s\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 3. B' "$e" "$w" ;;
	cut-mid-comment)
		OPEN=1
		printf '%s\n%s\n[Result "*"]\n\n1. e4 e5 {the annotation was cut in the mid' "$e" "$w" ;;
	esac
}

# A 31-bit LCG with a fixed seed: the same garbage on every machine.
seed=20261129
rnd() {
	seed=$(((seed * 1103515245 + 12345) % 2147483648))
	R=$(((seed >> 16) & 255))
}

# garbage KIND N: a region that is no game.  It starts with a byte that starts no game
# (no blank, digit, '[' or '%'), no line of it starts with '%' or a tag, no CR, and it
# ends with a line end.
WORDS=(lorem ipsum dolor sit amet "{brace" "(paren" "]" "[x" "\$12" ";semi" "!" "?" e4 Nf3
	1-0 "*" 1/2-1/2 0-1 "12." "...)" Qxf7# "O-O" "\"quoted\"" "}" ")" "%" "@" "<&>")
garbage() {
	local s="" i j nl w hx
	case $1 in
	binary | text) nl=$((3 + $2 % 3)) ;;
	esac
	case $1 in
	binary)
		for ((i = 0; i < nl; i++)); do
			for ((j = 0; j < 37 + i * 11; j++)); do
				rnd
				while ((R == 10 || R == 13)); do rnd; done
				((j == 0)) && R=$((128 + (R & 127)))
				printf -v hx '\\x%02x' "$R"
				s+=$hx
			done
			s+='\n'
		done
		;;
	nul)
		s='\x00\x00\x00\x00 NUL bytes \x00 between games\x00\n\x00\x00\x00\x00\x00\x00\x00\x00'
		s+='\x00\x00\x00\x00\x00\x00\x00\x00\n\x00\n'
		;;
	text)
		for ((i = 0; i < nl; i++)); do
			rnd
			s+="${WORDS[R % 5]}"
			for ((j = 0; j < 8 + i; j++)); do
				rnd
				s+=" ${WORDS[R % ${#WORDS[@]}]}"
			done
			s+='\n'
		done
		;;
	# (moves first, "e4 e5 ... *", would be a game without tags: vchess-text(5))
	chesslike) s='No tags: e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\ntext that looks like moves is no game here 1-0\n' ;;
	huge-line) bytes 1 1500000 ;; # longer than a line may be, and than a read
	huge-lines) bytes 12000 100 ;;
	esac
	printf '%b' "$s"
}
# bytes LINES LENGTH: random bytes, NUL included, but no CR or LF but the line ends;
# each line starts with a byte above 127 (Park-Miller's LCG: exact in doubles).
bytes() {
	awk -v lines="$1" -v len="$2" 'BEGIN {
		x = 20261129
		for (l = 0; l < lines; l++) {
			for (i = 0; i < len; i++) {
				x = (x * 16807) % 2147483647
				c = int(x / 8388608) % 256
				if (c == 10 || c == 13) c = 32
				if (i == 0) c = 128 + c % 128
				printf "%c", c
			}
			printf "\n"
		}
	}'
}

# ---- 2. the damaged archives --------------------------------------------------------------------
# Segments in the order they are read: kind (good, bad, garbage), file, archive,
# first and last line, first byte and end offset in the archive, description.
# The game number of a segment is its index in the run, from 1.
S_KIND=() S_FILE=() S_ARCH=() S_L0=() S_L1=() S_O0=() S_O1=() S_DESC=()
ARCH="" SIZE=0 LINES=0 OPENPREV=0 NSEG=0 NSEP=0
# what separates games: empty lines, lines of blanks, a CRLF line
SEPS=($'\n' $'\n\n\n' $' \t\n' $'\r\n' $'\n \n\t\n')
for ((i = 0; i < ${#SEPS[@]}; i++)); do printf '%s' "${SEPS[i]}" >"$T/seg/sep$i"; done

# Per file, computed once: size, line ends, whether it ends with one, non-blank bytes
# (good games); and the files the expected results are made of: FILE.conv (good: as
# it converts alone), FILE.rec (as in a rejects file), FILE.keep (bad: as it converts
# alone with --keep-broken).
declare -A FSIZE FLINES FNL FNB
prep() { # prep FILE KIND
	local f=$1
	[ -n "${FSIZE[$f]:-}" ] && return
	local wc
	wc=$(wc -lc <"$f")
	read -r "FLINES[$f]" "FSIZE[$f]" <<<"$wc"
	FNL[$f]=$(tail -c 1 "$f" | wc -l)
	case $2 in
	good)
		FNB[$f]=$(nonblank "$f")
		[ -f "$f.conv" ] || conv_alone "$f" >"$f.conv"
		;;
	*)
		{
			cat "$f"
			[ "${FNL[$f]}" = 1 ] || echo
			echo
		} >"$f.rec"
		[ "$2" = bad ] && conv_alone --keep-broken "$f" >"$f.keep"
		;;
	esac
}

# add KIND FILE DESC OPEN: the next segment of archive $ARCH (listed in $ARCH.list,
# written by finish); OPEN=1 when it does not end at a line with a result.
add() {
	local f=$2 sep
	prep "$f" "$1"
	if ((SIZE > 0)); then
		sep=$T/seg/sep$((NSEP % ${#SEPS[@]}))
		NSEP=$((NSEP + 1))
		prep "$sep" sep
		echo "$sep" >>"$T/$ARCH.list"
		SIZE=$((SIZE + ${FSIZE[$sep]})) LINES=$((LINES + ${FLINES[$sep]}))
	fi
	echo "$f" >>"$T/$ARCH.list"
	S_KIND+=("$1") S_FILE+=("$f") S_ARCH+=("$ARCH") S_DESC+=("$3")
	S_L0+=($((LINES + 1))) S_O0+=("$SIZE")
	SIZE=$((SIZE + ${FSIZE[$f]})) LINES=$((LINES + ${FLINES[$f]}))
	S_O1+=("$SIZE") S_L1+=($((LINES + 1 - ${FNL[$f]})))
	OPENPREV=$4
	NSEG=$((NSEG + 1))
}

# add_bad KIND [N]: a bad game, named after N (default: its segment number)
add_bad() {
	local n=${2:-$NSEG}
	local f=$T/seg/bad-$n-$1.pgn
	[ -f "$f" ] || bad "$1" "$n" >"$f"
	bad "$1" "$n" >/dev/null # sets OPEN
	add bad "$f" "$1" "$OPEN"
}

# add_garbage KIND [N]: a garbage region, made from N (default: its segment number)
add_garbage() {
	local n=${2:-$NSEG}
	local f=$T/seg/garbage-$n-$1.bin
	[ -f "$f" ] || garbage "$1" "$n" >"$f"
	add garbage "$f" "garbage-$1" 1
}

# What follows each good game, in turn ("-" nothing, "A+B" both).  Garbage comes
# only after a line with a result (anywhere else it is movetext of the game before),
# and only a tag line (even a broken one) starts a game after one that is still
# open: that is how archives are told apart into games (vchess-text(5)), and those
# are the only places this test puts them.
EXTRAS=(illegal-move g:binary piece-letter - g:nul off-board g:text unclosed-comment
	bad-tag g:chesslike unclosed-variation - bad-first-tag illegal-drop g:binary
	result-in-variation g:text - unclosed-variation+bad-first-tag)
NX=0
# games FIRST LAST [POOL]: the good games FIRST..LAST (0-based) of archive $ARCH,
# each followed by the next extra; with POOL (a number), the bad games and garbage
# are made once, named after POOL, and used again.
games() {
	local gi x n=
	for ((gi = $1; gi <= $2; gi++)); do
		[ $# -ge 3 ] && n=$3
		# a game that does not start with a tag line needs a closed game before it
		[ "$OPENPREV" = 1 ] && [ "${G_KIND[gi]}" != tag ] && add_bad illegal-move ${n:+"$n"}
		add good "${G_FILE[gi]}" "$(basename "${G_FILE[gi]}")" $((1 - G_RES[gi]))
		x=${EXTRAS[NX % ${#EXTRAS[@]}]}
		# garbage after an open game would be its movetext: it waits
		[ "$OPENPREV" = 1 ] && [ "${x#g:}" != "$x" ] && continue
		NX=$((NX + 1))
		case $x in
		-) ;;
		g:*) add_garbage "${x#g:}" ${n:+"$n"} ;;
		*+*) add_bad "${x%+*}" ${n:+"$n"} && add_bad "${x#*+}" ${n:+"$n"} ;;
		*) add_bad "$x" ${n:+"$n"} ;;
		esac
	done
}
start() { # start NAME
	ARCH=$1 SIZE=0 LINES=0 OPENPREV=0
	: >"$T/$ARCH.list"
}
finish() { # writes the archive $ARCH from its list
	tr '\n' '\0' <"$T/$ARCH.list" | xargs -0 cat >"$T/$ARCH"
	if [ "$(stat -c %s "$T/$ARCH")" != "$SIZE" ]; then
		fail "corpus: $ARCH has $(stat -c %s "$T/$ARCH") bytes, $SIZE counted"
		exit 1
	fi
}

q=$((NGOOD / 5))
start d1.pgn && games 0 $((q - 1)) && add_bad cut-mid-tag && finish
start d2.pgn && games "$q" $((2 * q - 1)) && add_bad cut-mid-move && finish
start d3.pgn && games $((2 * q)) $((3 * q - 1)) && add_bad cut-mid-comment && finish
start d4.pgn && games $((3 * q)) $((4 * q - 1)) && add_bad cut-in-tag-name && finish
NTEXT=$NSEG
TEXTS=(d1.pgn d2.pgn d3.pgn d4.pgn)
D5=$NSEG
start g5.pgn && games $((4 * q)) $((NGOOD - 1)) && finish
E5=$NSEG
# b6.pgn: BIG_REPS times all the good games, with bad games and garbage from a pool,
# and two big garbage regions: several MiB, so that games and garbage straddle the
# reader's 1 MiB reads (and, from a pipe or gzip, its many smaller ones).
BIG_REPS=${DAMAGED_REPS:-4}
# under the sanitizers (make san) twice: both big garbage regions, a smaller file
[ -z "${DAMAGED_REPS:-}" ] && [ "${VCHESS_SAN:-0}" = 1 ] && BIG_REPS=2
start b6.pgn
for ((rep = 0; rep < BIG_REPS; rep++)); do
	games 0 $((NGOOD - 1)) 1000
	if ((rep == BIG_REPS / 3 || rep == 2 * BIG_REPS / 3)); then
		[ "$OPENPREV" = 1 ] && add_bad illegal-move 1000
		if ((rep == BIG_REPS / 3)); then add_garbage huge-line 0; else add_garbage huge-lines 0; fi
	fi
done
finish
E6=$NSEG

count_kind() { # count_kind KIND FIRST END: segments FIRST..END-1 of that kind
	local i n=0
	for ((i = $2; i < $3; i++)); do [ "${S_KIND[i]}" = "$1" ] && n=$((n + 1)); done
	echo "$n"
}
NG=$(count_kind good 0 "$NTEXT") NB=$(count_kind bad 0 "$NTEXT") NJ=$(count_kind garbage 0 "$NTEXT")
NBAD=$((NB + NJ))
INBYTES=$(nonblank "$T"/d[1-4].pgn)
pass "corpus: d1-d4.pgn hold $NTEXT games: $NG good, $NB bad (4 cut at the end), $NJ garbage regions; $INBYTES non-blank bytes"

# expected FIRST END: $T/exp.out (the good games, each as it converts alone),
# $T/exp.rej (the rest, each as written, then a line end if it has none and an
# empty line), $T/exp.keep (all but the garbage, each as it converts alone with
# --keep-broken) and $T/exp.garb (the garbage, as in exp.rej).
expected() {
	local i f
	: >"$T/exp.out.list"
	: >"$T/exp.rej.list"
	: >"$T/exp.keep.list"
	: >"$T/exp.garb.list"
	for ((i = $1; i < $2; i++)); do
		f=${S_FILE[i]}
		case ${S_KIND[i]} in
		good)
			echo "$f.conv" >>"$T/exp.out.list"
			echo "$f.conv" >>"$T/exp.keep.list"
			;;
		bad)
			echo "$f.rec" >>"$T/exp.rej.list"
			echo "$f.keep" >>"$T/exp.keep.list"
			;;
		garbage)
			echo "$f.rec" >>"$T/exp.rej.list"
			echo "$f.rec" >>"$T/exp.garb.list"
			;;
		esac
	done
	for f in out rej keep garb; do
		tr '\n' '\0' <"$T/exp.$f.list" | xargs -0 -r cat >"$T/exp.$f"
	done
}

# same NAME EXPECTED ACTUAL: passes when the files are the same bytes
same() {
	if cmp -s "$2" "$3"; then
		pass "$1"
		return 0
	fi
	fail "$1"
	{
		cmp "$2" "$3"
		diff -a "$2" "$3"
	} 2>&1 | detail 16
	return 1
}

# diags ERR FIRST END: each bad game and garbage region of segments FIRST..END-1
# (games 1.. of the run) has exactly one positioned error in ERR, naming its game
# number, on a line of its own text; no good game has one.  Prints what is wrong.
diags() {
	local i
	for ((i = $2; i < $3; i++)); do
		echo "${S_KIND[i]} ${S_ARCH[i]} ${S_L0[i]} ${S_L1[i]} $((i - $2 + 1)) ${S_DESC[i]}"
	done >"$T/diag-table"
	awk '
	FILENAME != ARGV[2] {
		kind[$5] = $1; arch[$5] = $2; l0[$5] = $3; l1[$5] = $4; desc[$5] = $6; seen[$5] = 0
		next
	}
	/^vchess-convert: [0-9]+ of [0-9]+ games broken/ { next }
	{
		if (match($0, /^vchess-convert: [^:]+:[0-9]+:[0-9]+: error: game [0-9]+[ :]/) == 0) {
			print "not positioned: " $0; bad++; next
		}
		s = substr($0, 17, RLENGTH - 17); split(s, p, ":")
		file = p[1]; line = p[2] + 0; col = p[3] + 0
		g = s; sub(/^.* error: game /, "", g); g += 0
		sub(/^.*\//, "", file)
		if (!(g in kind)) { print "unknown game " g ": " $0; bad++; next }
		if (kind[g] == "good") { print "good game " g " (" desc[g] ") reported: " $0; bad++; next }
		if (file != arch[g] || line < l0[g] || line > l1[g] || col < 1) {
			print "game " g " (" desc[g] ", " arch[g] ":" l0[g] "-" l1[g] ") reported elsewhere: " $0
			bad++
		}
		seen[g]++
	}
	END {
		for (g in kind)
			if (kind[g] != "good" && seen[g] != 1) {
				print "game " g " (" desc[g] ", " arch[g] ":" l0[g] "-" l1[g] ") reported " seen[g] " times"
				bad++
			}
		exit bad > 0
	}' "$T/diag-table" "$1"
}

# ---- 3. text -> text with --rejects ------------------------------------------------------------
expected 0 "$NTEXT"
in_t vchess-convert --rejects rej.pgn "${TEXTS[@]}" >"$T/out.pgn" 2>"$T/err.txt"
rc=$?
if [ $rc = 1 ]; then pass "rejects: exit status 1"; else
	fail "rejects: exit status $rc, not 1"
	detail <"$T/err.txt"
fi
same "rejects: all $NG good games out, each unchanged" "$T/exp.out" "$T/out.pgn"
same "rejects: all $NB bad games and $NJ garbage regions in the rejects file, byte for byte" \
	"$T/exp.rej" "$T/rej.pgn"
GB=$(nonblank "${S_FILE[@]:0:NTEXT}" /dev/null) # all segments
GOODB=0
for ((i = 0; i < NTEXT; i++)); do
	[ "${S_KIND[i]}" = good ] && GOODB=$((GOODB + ${FNB[${S_FILE[i]}]}))
done
REJB=$(nonblank "$T/rej.pgn")
if [ "$INBYTES" = $((GOODB + REJB)) ] && [ "$GB" = "$INBYTES" ]; then
	pass "bytes: $INBYTES non-blank bytes in = $GOODB of good games out + $REJB rejected"
else
	fail "bytes: $INBYTES non-blank bytes in (segments $GB), $GOODB of good games out + $REJB rejected"
fi
NOUT=$(vchess-validate --summary "$T/out.pgn" 2>/dev/null | sed -n 's/^games //p')
SUMMARY="vchess-convert: $NBAD of $NTEXT games broken, $NBAD rejected to 'rej.pgn'"
if [ "$NOUT" = "$NG" ] && [ $((NOUT + NBAD)) = "$NTEXT" ] && grep -qxF "$SUMMARY" "$T/err.txt"; then
	pass "counts: $NTEXT games in = $NOUT out + $NBAD rejected ($NB bad games, $NJ garbage)"
else
	fail "counts: want $NTEXT in = $NG out + $NBAD rejected; got ${NOUT:-?} out; want '$SUMMARY'"
	grep -v ':[0-9]*:[0-9]*: error:' "$T/err.txt" | detail
fi
if diags "$T/err.txt" 0 "$NTEXT" >"$T/diag.txt"; then
	pass "diagnostics: one positioned error for each of the $NBAD broken games, none for the good"
else
	fail "diagnostics"
	detail 20 <"$T/diag.txt"
fi
if [ "$(grep -c . "$T/err.txt")" = $((NBAD + 1)) ]; then
	pass "diagnostics: nothing else on standard error but the summary"
else
	fail "diagnostics: $(grep -c . "$T/err.txt") lines on standard error, want $((NBAD + 1))"
fi
conv_alone "$T/out.pgn" >"$T/out2.pgn"
same "text -> text: the output converts to itself" "$T/out.pgn" "$T/out2.pgn"

# the same bytes from standard input (a pipe: told apart without a second read)
# shellcheck disable=SC2002 # a pipe is the point
cat "$T/d1.pgn" | vchess-convert --rejects "$T/rej-stdin.pgn" - >"$T/out-stdin.pgn" 2>"$T/err-stdin.txt"
rc=$?
in_t vchess-convert --rejects rej-d1.pgn d1.pgn >"$T/out-d1.pgn" 2>"$T/err-d1.txt"
sed 's/^vchess-convert: d1\.pgn:/vchess-convert: <stdin>:/; s/rejected to .*/rejected/' \
	"$T/err-d1.txt" >"$T/err-d1-as-stdin.txt"
sed 's/rejected to .*/rejected/' "$T/err-stdin.txt" >"$T/err-stdin-cut.txt"
if [ $rc = 1 ] && cmp -s "$T/out-stdin.pgn" "$T/out-d1.pgn" && cmp -s "$T/rej-stdin.pgn" "$T/rej-d1.pgn" &&
	cmp -s "$T/err-d1-as-stdin.txt" "$T/err-stdin-cut.txt"; then
	pass "stdin: d1.pgn from a pipe converts, rejects and reports as from the file"
else
	fail "stdin: d1.pgn from a pipe differs from the file (exit $rc)"
	diff -a "$T/err-d1-as-stdin.txt" "$T/err-stdin-cut.txt" | detail
fi

# ---- --keep-broken -------------------------------------------------------------------------------
in_t vchess-convert --keep-broken --rejects garb.pgn "${TEXTS[@]}" >"$T/keep.pgn" 2>"$T/err-keep.txt"
rc=$?
[ $rc = 1 ] || fail "keep-broken: exit status $rc, not 1"
same "keep-broken: $NG good and $NB bad games out, each as it converts alone" "$T/exp.keep" "$T/keep.pgn"
same "keep-broken: the $NJ garbage regions, and only they, in the rejects file" "$T/exp.garb" "$T/garb.pgn"
NKEEP=$(vchess-validate --summary "$T/keep.pgn" 2>/dev/null | sed -n 's/^games //p')
SUMMARY="vchess-convert: $NBAD of $NTEXT games broken, $NB written with their errors, $NJ rejected to 'garb.pgn'"
if [ "$NKEEP" = $((NG + NB)) ] && grep -qxF "$SUMMARY" "$T/err-keep.txt" &&
	diags "$T/err-keep.txt" 0 "$NTEXT" >/dev/null; then
	pass "keep-broken: counts: $NTEXT in = $NKEEP out + $NJ garbage rejected; diagnostics as without"
else
	fail "keep-broken: counts: want $((NG + NB)) out, got ${NKEEP:-?}; want '$SUMMARY'"
	grep -v ':[0-9]*:[0-9]*: error:' "$T/err-keep.txt" | detail
fi

# ---- neither: broken games reported, not written --------------------------------------------------
in_t vchess-convert "${TEXTS[@]}" >"$T/plain.pgn" 2>"$T/err-plain.txt"
rc=$?
SUMMARY="vchess-convert: $NBAD of $NTEXT games broken, $NBAD not written (see --keep-broken and --rejects)"
if [ $rc = 1 ] && cmp -s "$T/exp.out" "$T/plain.pgn" && grep -qxF "$SUMMARY" "$T/err-plain.txt"; then
	pass "no option: the good games out, the $NBAD broken ones counted as not written"
else
	fail "no option: exit $rc, output $(cmp -s "$T/exp.out" "$T/plain.pgn" && echo same || echo differs)"
	tail -n 1 "$T/err-plain.txt" | detail
fi

# ---- the truncated .gz -----------------------------------------------------------------------------
# g5.pgn gzipped and cut at 60% of its bytes.  What gzip -dc decodes of it is what the
# reader gets before the error: those bytes from a plain file (p5.pgn) must give the
# same output, rejects and diagnostics.  Segments wholly before the cut are checked
# as above; the one the cut falls in (if any) is handled as it is alone.
if ! command -v gzip >/dev/null 2>&1; then
	echo "skip truncated-gzip # gzip absent"
else
	gzip -9n -c "$T/g5.pgn" >"$T/full5.gz"
	size=$(stat -c %s "$T/full5.gz")
	head -c $((size * 6 / 10)) "$T/full5.gz" >"$T/g5.pgn.gz"
	gzip -dc "$T/g5.pgn.gz" >"$T/p5.pgn" 2>/dev/null
	P=$(stat -c %s "$T/p5.pgn")
	in_t vchess-convert --rejects rej5.pgn g5.pgn.gz >"$T/out5.pgn" 2>"$T/err5.txt"
	rc=$?
	in_t vchess-convert --rejects rej5p.pgn p5.pgn >"$T/out5p.pgn" 2>"$T/err5p.txt"
	if [ $rc = 2 ] && grep -qxF "vchess-convert: g5.pgn.gz: error: truncated gzip data" "$T/err5.txt"; then
		pass "gzip cut at $((size * 6 / 10)) of $size bytes: exit 2, 'truncated gzip data'"
	else
		fail "gzip cut: exit $rc, want 2 and 'vchess-convert: g5.pgn.gz: error: truncated gzip data'"
		detail <"$T/err5.txt"
	fi
	grep -v '^vchess-convert: g5.pgn.gz: error: truncated gzip data$' "$T/err5.txt" |
		sed 's/g5\.pgn\.gz:/p5.pgn:/; s/rejected to .*/rejected/' >"$T/err5-cut.txt"
	sed 's/rejected to .*/rejected/' "$T/err5p.txt" >"$T/err5p-cut.txt"
	if cmp -s "$T/out5.pgn" "$T/out5p.pgn" && cmp -s "$T/rej5.pgn" "$T/rej5p.pgn" &&
		cmp -s "$T/err5-cut.txt" "$T/err5p-cut.txt"; then
		pass "gzip cut: the $P bytes decoded before the cut give what they give from a plain file"
	else
		fail "gzip cut: the bytes decoded before the cut are not handled as from a plain file"
		diff -a "$T/err5-cut.txt" "$T/err5p-cut.txt" | detail
	fi
	# the segments wholly decoded, then the one cut (as it converts alone)
	END5=$D5
	while ((END5 < E5)) && ((S_O1[END5] <= P)); do END5=$((END5 + 1)); done
	expected "$D5" "$END5"
	CUTB=0 CUTDESC="no game"
	if ((END5 < E5)) && ((S_O0[END5] < P)); then
		# alone, but after a game, as in the archive: the first game of an input
		# may be movetext without tags, where later text is garbage
		tail -c +$((S_O0[END5] + 1)) "$T/p5.pgn" >"$T/cut5.pgn"
		CUTDESC="${S_DESC[END5]} (${S_KIND[END5]}), cut after $((P - S_O0[END5])) bytes,"
		printf '[Event "Context"]\n\n1. e4 *\n\n' >"$T/ctx.pgn"
		conv_alone "$T/ctx.pgn" >"$T/ctx.conv"
		cat "$T/ctx.pgn" "$T/cut5.pgn" >"$T/cut5ctx.pgn"
		in_t vchess-convert --rejects cut5-rej.pgn cut5ctx.pgn >"$T/cut5ctx-out.pgn" 2>/dev/null
		tail -c +$(($(stat -c %s "$T/ctx.conv") + 1)) "$T/cut5ctx-out.pgn" >"$T/cut5-out.pgn"
		cmp -s "$T/ctx.conv" <(head -c "$(stat -c %s "$T/ctx.conv")" "$T/cut5ctx-out.pgn") ||
			fail "gzip cut: the context game does not convert as alone"
		cat "$T/cut5-out.pgn" >>"$T/exp.out"
		cat "$T/cut5-rej.pgn" >>"$T/exp.rej"
		[ -s "$T/cut5-out.pgn" ] && CUTB=$(nonblank "$T/cut5.pgn") && CUTDESC="$CUTDESC out"
		[ -s "$T/cut5-rej.pgn" ] && CUTDESC="$CUTDESC rejected"
	fi
	GOOD5=0
	for ((i = D5; i < END5; i++)); do
		[ "${S_KIND[i]}" = good ] && GOOD5=$((GOOD5 + ${FNB[${S_FILE[i]}]}))
	done
	if cmp -s "$T/exp.out" "$T/out5.pgn" && cmp -s "$T/exp.rej" "$T/rej5.pgn"; then
		pass "gzip cut: $((END5 - D5)) whole games before the cut as in plain text; $CUTDESC as alone"
	else
		fail "gzip cut: the games before the cut ($((END5 - D5)), then $CUTDESC) are not out/rejected as alone"
		{
			diff -a "$T/exp.out" "$T/out5.pgn"
			diff -a "$T/exp.rej" "$T/rej5.pgn"
		} | detail
	fi
	IN5=$(nonblank "$T/p5.pgn") REJ5=$(nonblank "$T/rej5.pgn")
	if [ "$IN5" = $((GOOD5 + CUTB + REJ5)) ]; then
		pass "gzip cut: bytes: $IN5 non-blank bytes decoded = $((GOOD5 + CUTB)) out + $REJ5 rejected"
	else
		fail "gzip cut: bytes: $IN5 non-blank bytes decoded, $((GOOD5 + CUTB)) out + $REJ5 rejected"
	fi
	# the cut game is no segment of the table: leave it out of the check
	grep -v "error: game $((END5 - D5 + 1))[ :]" "$T/err5-cut.txt" | sed 's/p5\.pgn:/g5.pgn:/' >"$T/err5-whole.txt"
	if diags "$T/err5-whole.txt" "$D5" "$END5" >"$T/diag5.txt"; then
		pass "gzip cut: diagnostics: one positioned error for each broken game before the cut"
	else
		fail "gzip cut: diagnostics"
		detail <"$T/diag5.txt"
	fi

	# a next input is still read after the cut one
	in_t vchess-convert --rejects rej51.pgn g5.pgn.gz d1.pgn >"$T/out51.pgn" 2>/dev/null
	rc=$?
	if [ $rc = 2 ] && cmp -s "$T/out51.pgn" <(cat "$T/out5.pgn" "$T/out-d1.pgn") &&
		cmp -s "$T/rej51.pgn" <(cat "$T/rej5.pgn" "$T/rej-d1.pgn"); then
		pass "gzip cut: the next input is still converted and rejected in full"
	else
		fail "gzip cut: the input after the cut .gz is not converted in full (exit $rc)"
	fi

	# cut in the header: nothing decoded
	head -c 10 "$T/full5.gz" >"$T/head.pgn.gz"
	in_t vchess-convert --rejects rejh.pgn head.pgn.gz >"$T/outh.pgn" 2>"$T/errh.txt"
	rc=$?
	if [ $rc = 2 ] && [ ! -s "$T/outh.pgn" ] && [ ! -s "$T/rejh.pgn" ] &&
		grep -q '^vchess-convert: head.pgn.gz: error: ' "$T/errh.txt"; then
		pass "gzip cut in its header: exit 2, a message, nothing out"
	else
		fail "gzip cut in its header: exit $rc"
		detail <"$T/errh.txt"
	fi

	# cut before the trailer: all data decoded, yet the input is damaged
	head -c $((size - 4)) "$T/full5.gz" >"$T/tail.pgn.gz"
	in_t vchess-convert --rejects rejt.pgn tail.pgn.gz >"$T/outt.pgn" 2>"$T/errt.txt"
	rc=$?
	in_t vchess-convert --rejects rejt0.pgn g5.pgn >"$T/outt0.pgn" 2>/dev/null
	if [ $rc = 2 ] && cmp -s "$T/outt.pgn" "$T/outt0.pgn" && cmp -s "$T/rejt.pgn" "$T/rejt0.pgn" &&
		grep -qxF 'vchess-convert: tail.pgn.gz: error: truncated gzip data' "$T/errt.txt"; then
		pass "gzip cut before its trailer: exit 2, every game out or rejected as from g5.pgn"
	else
		fail "gzip cut before its trailer: exit $rc"
		detail <"$T/errt.txt"
	fi
fi

# ---- 4. a big archive: from a file, a pipe and gzip ------------------------------------------
expected "$E5" "$E6"
NG6=$(count_kind good "$E5" "$E6") NB6=$(count_kind bad "$E5" "$E6") NJ6=$(count_kind garbage "$E5" "$E6")
NBAD6=$((NB6 + NJ6)) NIN6=$((E6 - E5))
pass "big: b6.pgn, $SIZE bytes, holds $NIN6 games: $NG6 good, $NB6 bad, $NJ6 garbage regions (one a line of $(stat -c %s "$T/seg/garbage-0-huge-line.bin") bytes, one of $(stat -c %s "$T/seg/garbage-0-huge-lines.bin") bytes)"
command -v gzip >/dev/null 2>&1 && gzip -1 -c "$T/b6.pgn" >"$T/b6.pgn.gz"
for how in file pipe gzip keep; do
	# shellcheck disable=SC2002 # a pipe is the point
	case $how in
	file)
		in_t vchess-convert --rejects rej6.pgn b6.pgn >"$T/out6.pgn" 2>"$T/err6.txt"
		rc=$?
		cp "$T/rej6.pgn" "$T/rej6-file.pgn"
		(exit $rc)
		;;
	pipe) cat "$T/b6.pgn" | in_t vchess-convert --rejects rej6.pgn - >"$T/out6.pgn" 2>"$T/err6.txt" ;;
	gzip)
		if [ ! -f "$T/b6.pgn.gz" ]; then
			echo "skip big-gzip # gzip absent"
			continue
		fi
		in_t vchess-convert --rejects rej6.pgn b6.pgn.gz >"$T/out6.pgn" 2>"$T/err6.txt"
		;;
	keep) in_t vchess-convert --keep-broken --rejects rej6.pgn b6.pgn >"$T/out6.pgn" 2>"$T/err6.txt" ;;
	esac
	rc=$?
	sed -i 's/^vchess-convert: \(<stdin>\|b6\.pgn\.gz\):/vchess-convert: b6.pgn:/' "$T/err6.txt"
	why=""
	[ $rc = 1 ] || why="$why exit $rc;"
	if [ $how = keep ]; then
		cmp -s "$T/exp.keep" "$T/out6.pgn" || why="$why output differs;"
		cmp -s "$T/exp.garb" "$T/rej6.pgn" || why="$why rejects differ;"
		SUMMARY="vchess-convert: $NBAD6 of $NIN6 games broken, $NB6 written with their errors, $NJ6 rejected to 'rej6.pgn'"
	else
		cmp -s "$T/exp.out" "$T/out6.pgn" || why="$why output differs;"
		cmp -s "$T/exp.rej" "$T/rej6.pgn" || why="$why rejects differ;"
		SUMMARY="vchess-convert: $NBAD6 of $NIN6 games broken, $NBAD6 rejected to 'rej6.pgn'"
	fi
	grep -qxF "$SUMMARY" "$T/err6.txt" || why="$why no '$SUMMARY';"
	diags "$T/err6.txt" "$E5" "$E6" >"$T/diag6.txt" || why="$why diagnostics;"
	if [ -z "$why" ]; then
		pass "big ($how): every game out or rejected, byte for byte; counts and diagnostics right"
	else
		fail "big ($how):$why"
		{
			cmp "$T/exp.out" "$T/out6.pgn"
			cmp "$T/exp.rej" "$T/rej6.pgn"
			cat "$T/diag6.txt"
			grep -v ':[0-9]*:[0-9]*: error:' "$T/err6.txt"
		} 2>&1 | detail
	fi
done
IN6=$(nonblank "$T/b6.pgn") REJ6=$(nonblank "$T/rej6-file.pgn") GOOD6=0
for ((i = E5; i < E6; i++)); do
	[ "${S_KIND[i]}" = good ] && GOOD6=$((GOOD6 + ${FNB[${S_FILE[i]}]}))
done
if [ "$IN6" = $((GOOD6 + REJ6)) ]; then
	pass "big: bytes: $IN6 non-blank bytes in = $GOOD6 of good games out + $REJ6 rejected"
else
	fail "big: bytes: $IN6 non-blank bytes in, $GOOD6 of good games out + $REJ6 rejected"
fi

# ---- 5. output that cannot be written --------------------------------------------------------------
if [ -c /dev/full ] && [ -w /dev/full ]; then
	for how in stdout -o --rejects -z; do
		case $how in
		stdout) vchess-convert corpora/chess/example.pgn >/dev/full 2>"$T/full.txt" ;;
		-o) vchess-convert -o /dev/full corpora/chess/example.pgn 2>"$T/full.txt" ;;
		--rejects) vchess-convert --rejects /dev/full corpora/chess/broken.pgn >/dev/null 2>"$T/full.txt" ;;
		-z) vchess-convert -z corpora/chess/example.pgn >/dev/full 2>"$T/full.txt" ;;
		esac
		rc=$?
		if [ $rc = 2 ] && grep -q "^vchess-convert: .*error: cannot write .*No space left on device" "$T/full.txt"; then
			pass "/dev/full ($how): exit 2, '$(grep -m1 'cannot write' "$T/full.txt" | sed 's/^vchess-convert: //')'"
		else
			fail "/dev/full ($how): exit $rc, want 2 and 'cannot write ...: No space left on device'"
			detail <"$T/full.txt"
		fi
	done
else
	echo "skip dev-full # /dev/full is not a writable device here"
fi
exit 0
