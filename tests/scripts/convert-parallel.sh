#!/usr/bin/env bash
# convert-parallel.sh - vchess-convert -j N writes byte for byte what -j 1 writes.
#
# Each case runs vchess-convert with -j 1, -j 2 and -j 8, each in a fresh
# directory of its own, the inputs named by the same absolute paths, and
# compares everything each run left there: standard output, standard error,
# the exit status, the -o file or the --split files, the rejects file.  -j 1
# is the single-threaded loop; -j 2 and -j 8 read in this thread, replay and
# format in workers (vc_writer_piece) and write in input order
# (vc_writer_put), so the cases cover what the ordered stage keeps across
# games and what the workers must hand back:
#   - every output format (text, xml, fen, json-lines), to standard output
#     and to -o, plain and -z, with --rejects, --keep-broken and --split;
#   - the repository's corpora (corpora/*/*.pgn, one run over all of them:
#     game numbers go on across inputs), their XML (games without raw bytes:
#     the rejects are written as text pieces), standard input (the relay);
#   - selections (tags, numbers, valid/invalid, variant, positions), writing
#     options;
#   - what the reader reports while it reads ahead: a gzip stream with junk
#     after it, a gzip stream cut short (exit 2 after the games before the
#     cut), and output that fails (/dev/full), where -j 1 stops at once;
#   - games nested deeper than the XML serialiser goes (their pieces come
#     from the xmlTextWriter);
#   - the real archives of corpora/MANIFEST that make corpora put in
#     $CORPORA: the first 1000 games of each (FULL=1: all of them, and FEN
#     too); each one absent is skipped.
# Under the sanitizers (make san sets VCHESS_SAN=1) -j 8 alone is compared
# with -j 1 (the workers and the ordered stage are the same code at -j 2),
# on the first 250 games of each real archive: the check run takes -j 2
# and 1000 games.
set -u
jobs="2 8"
[ "${VCHESS_SAN:-0}" = 1 ] && jobs=8
export LC_ALL=C
root=$(pwd)
T=${TMPDIR:-/tmp}/convert-parallel
rm -rf "$T"
mkdir -p "$T" || exit 2
C=${CORPORA:-corpora/real}
case $C in /*) ;; *) C=$root/$C ;; esac
full=${FULL:-0}

if ! command -v vchess-convert >/dev/null 2>&1; then
	echo "not ok convert-parallel: vchess-convert not in PATH"
	exit 1
fi

# run NAME JOBS ARGS...: vchess-convert -j JOBS ARGS in $T/NAME/jJOBS, standard
# input from $IN (default /dev/null); keeps stdout, stderr and status there.
run() {
	local name=$1 j=$2
	shift 2
	local d=$T/$name/j$j
	rm -rf "$d"
	mkdir -p "$d"
	(cd "$d" && vchess-convert -j "$j" "$@" <"${IN:-/dev/null}" >stdout 2>stderr
	echo $? >status)
}

# same NAME ARGS...: -j 2 and -j 8 leave what -j 1 leaves.  WANT=N: the exit
# status -j 1 must have (a case that goes wrong the same way every time
# proves nothing).
same() {
	local name=$1
	shift
	local j bad=0
	for j in 1 $jobs; do
		run "$name" "$j" "$@"
	done
	local d=$T/$name st
	st=$(cat "$d/j1/status")
	for j in $jobs; do
		if ! diff -r "$d/j1" "$d/j$j" >"$d/diff$j" 2>&1; then
			echo "not ok $name: -j $j differs from -j 1 (vchess-convert ${*//$root\//})"
			sed 's/^/    /' "$d/diff$j" | head -n 12
			bad=1
		fi
	done
	if [ -n "${WANT:-}" ] && [ "$st" != "$WANT" ]; then
		echo "not ok $name: -j 1 exits $st, want $WANT"
		sed 's/^/    /' "$d/j1/stderr" | tail -n 5
		bad=1
	fi
	if [ $bad = 0 ]; then
		local n bytes
		n=$(find "$d/j1" -type f | wc -l)
		bytes=$(cat "$d/j1"/* | wc -c)
		echo "ok $name: -j ${jobs// / and -j } equal -j 1 (exit $st, $n files, $bytes bytes)"
	fi
	rm -rf "$d/j2" "$d/j8"
}

ext_of() { case $1 in text) echo pgn ;; xml) echo xml ;; fen) echo fen ;; *) echo jsonl ;; esac; }

# ---- the repository's corpora ----
shopt -s nullglob
corp=() fast=()
for f in "$root"/corpora/*/*.pgn; do
	corp+=("$f")
	# the other cases leave out Io Chess, whose variant each worker loads
	# (50 ms): they would take most of the time
	case $f in */corpora/io/*) ;; *) fast+=("$f") ;; esac
done
if [ ${#corp[@]} = 0 ]; then
	echo "not ok corpora: no corpora/*/*.pgn"
	exit 1
fi
for fmt in text xml fen json-lines; do
	e=$(ext_of $fmt)
	WANT=1 same "corpora-$fmt-stdout" -t $fmt "${corp[@]}"
	WANT=1 same "corpora-$fmt-split-rejects" -t $fmt --split 7 -o "out.$e" --rejects rej.pgn \
		"${corp[@]}"
	WANT=1 same "corpora-$fmt-keep-split-z" -t $fmt --keep-broken --rejects rej.pgn --split 50 -z \
		-o "out.$e.gz" "${corp[@]}"
done
WANT=1 same corpora-text-options --long --fen-comments --mark-swaps --no-variations "${fast[@]}"
WANT=1 same corpora-xml-options -t xml --fen-comments --mark-swaps --no-tags "${fast[@]}"
WANT=1 same corpora-fen-plies -t fen --plies --keep-broken --variant schizochess --split 40 \
	-o out.fen "${fast[@]}"
WANT=1 same corpora-strict --strict --keep-broken --rejects rej.pgn "${fast[@]}"
WANT=1 same corpora-select-tags --select 'White~^[A-Z]' --select 'Date>=1900' --rejects rej.pgn \
	"${fast[@]}"
WANT=1 same corpora-select-games -t json-lines --select game=20-300 --keep-broken "${fast[@]}"
WANT=0 same corpora-select-valid --select valid -t xml "${fast[@]}"
WANT=1 same corpora-select-invalid --select invalid --select variant=crazyhouse --keep-broken \
	"${fast[@]}"
WANT=1 same corpora-select-positions --keep-broken --select 'position=*/*/*/*/*/*/*/*K* or ended' \
	--select 'not material>=QQ or moves="1. e4"' "${fast[@]}"

# XML in: games without raw bytes (rejects written as text), XML warnings
vchess-convert -j 1 -t xml --keep-broken -o "$T/all.xml" "${fast[@]}" 2>/dev/null
WANT=1 same xml-in-rejects --rejects rej.pgn -o out.pgn "$T/all.xml"
WANT=1 same xml-in-json -t json-lines --keep-broken "$T/all.xml" "${fast[0]}"

# standard input and a pipe: the relay, messages naming <stdin>
IN=${fast[0]} WANT=1 same stdin-text --rejects rej.pgn -
IN=$T/all.xml WANT=1 same stdin-xml -t fen -

# what the reader says while it reads ahead
cat "${fast[@]}" >"$T/all.pgn"
gzip -c "$T/all.pgn" >"$T/all.pgn.gz"
{ cat "$T/all.pgn.gz"; printf 'junk after the stream'; } >"$T/trailing.pgn.gz"
head -c $(($(wc -c <"$T/all.pgn.gz") * 2 / 3)) "$T/all.pgn.gz" >"$T/cut.pgn.gz"
WANT=1 same gzip-trailing --rejects rej.pgn "$T/trailing.pgn.gz" "${fast[0]}"
WANT=2 same gzip-cut -t xml --rejects rej.pgn -o out.xml "$T/cut.pgn.gz" "${fast[0]}"
WANT=2 same gzip-cut-keep --keep-broken "$T/cut.pgn.gz" "$T/all.pgn"
# output that fails: -j 1 stops at the game whose write fails
big=("$T/all.pgn" "$T/all.pgn" "$T/all.pgn" "$T/all.pgn")
WANT=2 same full-output -t xml -o /dev/full "${big[@]}"
WANT=2 same full-rejects --rejects /dev/full -o out.pgn "${big[@]}"

# nested deeper than the XML serialiser goes
python3 - "$T/deep.pgn" <<'EOF'
import sys
out = []
for i, d in enumerate([0, 3, 57, 58, 59, 60, 61, 64, 70, 90, 2, 63] * 8):
    com = " {" + "x" * (37 * i % 400) + "}" if i % 3 else ""
    out.append('[Event "deep %d"]\n[White "W%d"]\n[Black "B"]\n\n1. e4%s %s%s e5 2. Nf3 *\n'
               % (d, i, com, "(1. d4 " * d, ")" * d))
open(sys.argv[1], "w").write("\n".join(out))
EOF
WANT=0 same deep-xml -t xml "$T/deep.pgn" "$T/deep.pgn"
WANT=0 same deep-xml-split -t xml --split 5 -o out.xml "$T/deep.pgn"

# ---- the real archives (corpora/MANIFEST) ----
first_games() { # N: the first N games of standard input (N 0: all)
	if [ "$1" = 0 ]; then cat; else awk -v n="$1" '/^\[Event /{k++} k>n{exit} {print}'; fi
}
n=1000
[ "${VCHESS_SAN:-0}" = 1 ] && n=250
[ "$full" = 1 ] && n=0
if [ ! -d "$C" ]; then
	echo "skip shared-archives # $C absent"
	rm -rf "$T"
	exit 0
fi
mapfile -t real < <(awk '!/^#/ && NF { print $1 }' "$root/corpora/MANIFEST")
for a in "${real[@]}"; do
	case $a in standard/*.pgn.gz | variant/*.pgn.gz) ;; *) continue ;; esac
	f=$C/$a b=$(basename "$a" .pgn.gz)
	if [ ! -f "$f" ]; then
		echo "skip shared-$b # $f absent"
		continue
	fi
	if [ "$full" = 1 ]; then
		in=$f
	else
		in=$T/$b.pgn
		gzip -dc "$f" | first_games $n >"$in"
	fi
	same "shared-$b-text" --rejects rej.pgn -o out.pgn "$in"
	same "shared-$b-xml" -t xml --keep-broken --rejects rej.pgn -o out.xml "$in"
	same "shared-$b-json" -t json-lines --split 400 -o out.jsonl "$in"
	same "shared-$b-select" --select 'final=*/*/*/*/*/*/*/*K* or material>=Q2 or moves="e4 c5"' \
		--select 'not checkmate' "$in"
	[ "$full" = 1 ] && same "shared-$b-fen" -t fen --keep-broken "$in"
	[ "$full" = 1 ] || rm -f "$in"
done
edge=()
for a in "${real[@]}"; do
	case $a in edge-cases/*.pgn) ;; *) continue ;; esac
	if [ -f "$C/$a" ]; then
		edge+=("$C/$a")
	else
		echo "skip shared-edge-cases ($(basename "$a")) # $C/$a absent"
	fi
done
if [ ${#edge[@]} -gt 0 ]; then
	same shared-edge-cases-text --rejects rej.pgn "${edge[@]}"
	same shared-edge-cases-xml -t xml --keep-broken "${edge[@]}"
fi
rm -rf "$T"
exit 0
