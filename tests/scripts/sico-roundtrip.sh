#!/usr/bin/env bash
# SICO's multi-player records survive the formats: for each game of
# corpora/sico/multiplayer.pgn, text -> text (canonical) and text -> XML ->
# text keep every [%by], [%comment] and [%draw] command, in order, after the
# same number of plies, and the converted games validate as the original
# does.  Skips while vchess-convert does not exist.
set -u
if ! command -v vchess-convert >/dev/null 2>&1; then
	echo "skip sico-roundtrip: no vchess-convert yet"
	exit 0
fi
in=corpora/sico/multiplayer.pgn
tmp=${TMPDIR:-/tmp}/sico-roundtrip.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

# records FILE: one line per comment that holds a record command,
# "PLIES<TAB>COMMENT", with the plies played before it and blanks made
# single spaces (the text writer folds lines inside comments).  Tags, move
# numbers and results are not plies.
records() {
	tr '\r\n' '  ' <"$1" | awk '
	function word(w) {
		if (w == "" || w ~ /^[0-9]+\.+$/ || w ~ /^(1-0|0-1|1\/2-1\/2|\*)$/)
			return
		sub(/^[0-9]+\.+/, "", w)
		if (w != "")
			plies++
	}
	function comment(c) {
		if (c !~ /\[%(by|comment|draw)[ "\]]/)
			return
		gsub(/[ \t]+/, " ", c)
		sub(/^ /, "", c)
		sub(/ $/, "", c)
		printf "%d\t%s\n", plies, c
	}
	{
		s = $0; n = length(s); w = ""
		for (i = 1; i <= n; i++) {
			ch = substr(s, i, 1)
			if (ch == "{") {
				word(w); w = ""
				j = index(substr(s, i + 1), "}")
				comment(substr(s, i + 1, j - 1))
				i += j
			} else if (ch == "[") {
				word(w); w = ""
				j = index(substr(s, i + 1), "]")
				i += j
			} else if (ch == " ") {
				word(w); w = ""
			} else
				w = w ch
		}
		word(w)
	}'
}

summary() { vchess-validate --summary "$1" 2>&1 | grep -v '^variant '; }

records "$in" >"$tmp/orig.rec"
n=$(wc -l <"$tmp/orig.rec")
if [ "$n" -lt 35 ]; then
	echo "not ok sico-roundtrip: only $n records read from $in"
	exit 1
fi
summary "$in" >"$tmp/orig.sum"

check() { # check NAME FILE
	records "$2" >"$tmp/$1.rec"
	if ! cmp -s "$tmp/orig.rec" "$tmp/$1.rec"; then
		echo "not ok sico-roundtrip $1: the records differ"
		diff "$tmp/orig.rec" "$tmp/$1.rec" | head -20 | sed 's/^/    /'
		return
	fi
	summary "$2" >"$tmp/$1.sum"
	if ! cmp -s "$tmp/orig.sum" "$tmp/$1.sum"; then
		echo "not ok sico-roundtrip $1: validates differently"
		diff "$tmp/orig.sum" "$tmp/$1.sum" | head -20 | sed 's/^/    /'
		return
	fi
	echo "ok sico-roundtrip $1: $n comments with records kept"
}

if vchess-convert -t text -o "$tmp/text.pgn" "$in" 2>"$tmp/err"; then
	check text "$tmp/text.pgn"
	if vchess-convert -t text -o "$tmp/text2.pgn" "$tmp/text.pgn" 2>"$tmp/err" &&
		cmp -s "$tmp/text.pgn" "$tmp/text2.pgn"; then
		echo "ok sico-roundtrip text-again: the canonical text is a fixed point"
	else
		echo "not ok sico-roundtrip text-again: text -> text is not idempotent"
	fi
else
	echo "not ok sico-roundtrip text: vchess-convert failed"
	sed 's/^/    /' "$tmp/err" | head -10
fi
if vchess-convert -t xml -o "$tmp/games.xml" "$in" 2>"$tmp/err" &&
	vchess-convert -f xml -t text -o "$tmp/xml.pgn" "$tmp/games.xml" 2>>"$tmp/err"; then
	check xml "$tmp/xml.pgn"
else
	echo "not ok sico-roundtrip xml: vchess-convert failed"
	sed 's/^/    /' "$tmp/err" | head -10
fi
