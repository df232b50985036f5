#!/usr/bin/env bash
# vchess-convert --select against pgn-extract's tag selection (-t) on the
# same orthodox games: the counts of games selected must agree.  Runs on
# the first games of the standard archives of corpora/MANIFEST (in
# $CORPORA); skips cleanly when pgn-extract or an archive is absent.
#
# pgn-extract compares dates by their year only (Date >= "1990.06.01"
# selects all of 1990), so dates are compared here by year, where both
# tools agree; vchess-convert compares whole dates (see vchess-convert(1)).
set -u
# Compared with pgn-extract in make check only: under the sanitizers
# (make san sets VCHESS_SAN=1) it skips, the C code it drives running there
# in t_genval, t_diff, t_bb and the goldens (random games of every variant).
if [ "${VCHESS_SAN:-0}" = 1 ]; then
	echo "skip convert-pgn-extract: compared with pgn-extract in make check; the same C code runs under the sanitizers in the unit tests"
	exit 0
fi
PATH="$PATH:/usr/games"
C=${CORPORA:-corpora/real}
T=${TMPDIR:-/tmp}
N=${CONVERT_GAMES:-5000}
if ! command -v pgn-extract >/dev/null 2>&1; then
	echo "skip pgn-extract-counts # pgn-extract absent"
	exit 0
fi

# check NAME FILE PGN_EXTRACT_CRITERIA VCHESS_SELECT...
check() {
	local name=$1 file=$2 crit=$3
	shift 3
	local sel=() s
	for s in "$@"; do sel+=(--select "$s"); done
	printf '%s\n' "$crit" >"$T/tags.txt"
	local a b
	a=$(pgn-extract -s --quiet -t"$T/tags.txt" "$file" 2>/dev/null | grep -c '^\[Event ')
	b=$(vchess-convert "${sel[@]}" "$file" 2>/dev/null | grep -c '^\[Event ')
	if [ "$a" = "$b" ] && [ "$a" -gt 0 ]; then
		echo "ok $name: $b games"
	else
		echo "not ok $name: pgn-extract selects $a games, vchess-convert $b"
	fi
}

f="$C/standard/pgnmentor-10-players.pgn.gz"
if [ -f "$f" ]; then
	gzip -dc "$f" | awk -v n="$N" '/^\[Event /{ if (++k > n) exit } { print }' >"$T/pm.pgn"
	P="$T/pm.pgn"
	check "pgnmentor WhiteElo>=2700" "$P" 'WhiteElo >= "2700"' 'WhiteElo>=2700'
	check "pgnmentor BlackElo<2500" "$P" 'BlackElo < "2500"' 'BlackElo<2500'
	check "pgnmentor Result=1-0" "$P" 'Result "1-0"' 'Result=1-0'
	check "pgnmentor Date>=1972" "$P" 'Date >= "1972"' 'Date>=1972'
	check "pgnmentor Date<1950" "$P" 'Date < "1950"' 'Date<1950'
	check "pgnmentor White=" "$P" 'White "Alekhine, Alexander"' 'White=Alekhine, Alexander'
	check "pgnmentor ECO and Result" "$P" 'ECO "C42"
Result "1/2-1/2"' 'ECO=C42' 'Result=1/2-1/2'
	rm -f "$P"
else
	echo "skip pgnmentor # $f absent"
fi

f="$C/standard/lichess-magnus-2018-2022.pgn.gz"
if [ -f "$f" ]; then
	gzip -dc "$f" | awk -v n="$N" '/^\[Event /{ if (++k > n) exit } { print }' >"$T/li.pgn"
	P="$T/li.pgn"
	check "lichess WhiteElo>2900" "$P" 'WhiteElo > "2900"' 'WhiteElo>2900'
	check "lichess BlackElo<=2500" "$P" 'BlackElo <= "2500"' 'BlackElo<=2500'
	check "lichess Black=" "$P" 'Black "DrNykterstein"' 'Black=DrNykterstein'
	check "lichess Date>2020" "$P" 'Date > "2020"' 'Date>2020'
	rm -f "$P"
else
	echo "skip lichess # $f absent"
fi
exit 0
