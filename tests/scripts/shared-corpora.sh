#!/usr/bin/env bash
# Real archives written by others (corpora/MANIFEST; make corpora fetches
# them into $CORPORA): every game must validate, plain and gzipped, and
# --summary must count the games and plies the manifest gives.  Each check
# skips, naming the file, when its archive is absent.
set -u
C=${CORPORA:-corpora/real}
check() { # name file games plies
	local name=$1 file=$2 games=$3 plies=$4
	if [ ! -f "$file" ]; then
		echo "skip $name # $file absent"
		return
	fi
	local out rc
	out=$(vchess-validate --summary "$file" 2>&1)
	rc=$?
	local g p
	g=$(sed -n 's/^games //p' <<<"$out")
	p=$(sed -n 's/^plies //p' <<<"$out")
	if [ $rc -eq 0 ] && [ "$g" = "$games" ] && { [ -z "$plies" ] || [ "$p" = "$plies" ]; }; then
		echo "ok $name: $g games, $p plies"
	else
		echo "not ok $name: exit $rc, games '$g' (want $games), plies '$p' (want ${plies:-any})"
		head -5 <<<"$out" | sed 's/^/    /'
	fi
}
check lichess-magnus-gz "$C/standard/lichess-magnus-2018-2022.pgn.gz" 46177 3587537
check pgnmentor-gz "$C/standard/pgnmentor-10-players.pgn.gz" 19820 1626897
check stockfish-book-gz "$C/standard/stockfish-book-8moves.pgn.gz" 34700 ""
check fischer-crlf "$C/edge-cases/pgnmentor-fischer-crlf.pgn" 827 ""
for f in utf8-bom chessbase-empty-line kasparov-deep-blue-1997 molinari-bordais-1979 \
	nepomniachtchi-liren-game1 stockfish-learning anastasian-lewis uci-moves cutechess-fischerrandom \
	antichess-programfox; do
	file="$C/edge-cases/$f.pgn"
	if [ ! -f "$file" ]; then
		echo "skip edge-$f # $file absent"
		continue
	fi
	if out=$(vchess-validate "$file" 2>&1); then
		echo "ok edge-$f"
	else
		echo "not ok edge-$f"
		head -5 <<<"$out" | sed 's/^/    /'
	fi
done
# the plain text gives the same summary as the gzip
f="$C/standard/stockfish-book-8moves.pgn.gz"
if [ -f "$f" ]; then
	a=$(vchess-validate --summary "$f" 2>&1)
	b=$(gzip -dc "$f" | vchess-validate --summary - 2>&1)
	if [ "$a" = "$b" ]; then echo "ok gzip-equals-plain"; else echo "not ok gzip-equals-plain"; fi
else
	echo "skip gzip-equals-plain # $f absent"
fi
# summary lines that must appear (exit status is not checked here)
expect() { # name file line...
	local name=$1 file=$2
	shift 2
	if [ ! -f "$file" ]; then
		echo "skip $name # $file absent"
		return
	fi
	local out miss=""
	out=$(vchess-validate --summary "$file" 2>&1)
	for want in "$@"; do
		grep -qxF -- "$want" <<<"$out" || miss="$miss [$want]"
	done
	if [ -z "$miss" ]; then echo "ok $name"; else
		echo "not ok $name: missing$miss"
		grep -v '^vchess-validate:' <<<"$out" | sed 's/^/    /'
	fi
}
# crazyhouse-360: all valid but game 249, whose engine line after 4. d4
# starts from an earlier position (corpora/MANIFEST).  Its 23 + 45 plies are
# counted here; python-chess's 20,237 leaves that game out.
expect crazyhouse-360 "$C/variant/crazyhouse-360.pgn.gz" "games 360" "valid 359" \
	"plies 19933" "variation-plies 372" "variant crazyhouse: games 360 valid 359 plies 19933"
f="$C/variant/crazyhouse-360.pgn.gz"
if [ -f "$f" ]; then
	if vchess-validate "$f" 2>&1 | grep -q "game 249 (- - -), ply 8 '4... e7e6' in a variation: no pawn can reach e6"; then
		echo "ok crazyhouse-360-game-249"
	else
		echo "not ok crazyhouse-360-game-249: not reported at its variation"
	fi
else
	echo "skip crazyhouse-360-game-249 # $f absent"
fi
# lichess's other variants, every game of them replayed: python-chess finds
# no illegal move in the file, and neither may vchess (SOURCES.md)
expect lichess-other-variants "$C/variant/lichess-other-variants.pgn.gz" "games 1068" \
	"valid 1068" "plies 72008" "variant chess: games 443 valid 443 plies 31909" \
	"variant crazyhouse: games 24 valid 24 plies 1183" \
	"variant atomic: games 52 valid 52 plies 1364" \
	"variant chess960: games 466 valid 466 plies 34143" \
	"variant three-check: games 15 valid 15 plies 312" \
	"variant king-of-the-hill: games 56 valid 56 plies 2663" \
	"variant antichess: games 11 valid 11 plies 419" \
	"variant racing-kings: games 1 valid 1 plies 15"
# ... and in strict mode too: lichess marks the third check '+' and a king on
# the hill not at all, both of which strict mode accepts (vchess-validate(1))
f="$C/variant/lichess-other-variants.pgn.gz"
if [ -f "$f" ]; then
	out=$(vchess-validate --strict "$f" 2>&1)
	if [ -z "$out" ]; then echo "ok lichess-other-variants-strict"; else
		echo "not ok lichess-other-variants-strict: diagnostics in strict mode"
		head -5 <<<"$out" | sed 's/^/    /'
	fi
else
	echo "skip lichess-other-variants-strict # $f absent"
fi
# Orthodox games replayed as Schizochess: the variant machinery never
# touches plies 1 to 4, so a game either validates or fails at ply 5 or later.
for a in standard/pgnmentor-10-players.pgn.gz standard/stockfish-book-8moves.pgn.gz; do
	f="$C/$a"
	name=schizo-$(basename "$a" .pgn.gz)
	if [ ! -f "$f" ]; then
		echo "skip $name # $f absent"
		continue
	fi
	early=$(vchess-validate --force-variant schizochess "$f" 2>&1 |
		LC_ALL=C sed -n 's/.*, ply \([0-9]*\) .*/\1/p' | awk '$1 < 5' | wc -l)
	games=$(vchess-validate --force-variant schizochess --summary "$f" 2>/dev/null | sed -n 's/^games //p')
	if [ "$early" -eq 0 ] && [ -n "$games" ] && [ "$games" -gt 0 ]; then
		echo "ok $name: $games games, none fails before ply 5"
	else
		echo "not ok $name: $early problems before ply 5 (games: $games)"
	fi
done
