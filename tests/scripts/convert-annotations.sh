#!/usr/bin/env bash
# Annotations as data (vchess-xml(5)): [%clk], [%emt], [%eval], [%cal] and
# [%csl] become attributes and elements of the move in XML and keys of the
# move in JSON, while the comments keep them as written.  On
# corpora/chess/annotations.pgn and on the first games of the real lichess
# archives (which carry [%clk] and [%eval] on nearly every move):
#  - text -> XML -> text gives the canonical text byte for byte;
#  - the XML passes xmllint --relaxng formats/xml/vchess.rng;
#  - every move's keys in JSON are what chessops (lichess's own library,
#    tests/node/chessops-comments.mjs) reads from the same comments;
#  - the XML has as many clk attributes as the JSON has clk keys.
# Skips with the reason what needs xmllint, node, chessops or the archives.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
RNG=formats/xml/vchess.rng
node_ok=1 why=""
if ! command -v node >/dev/null 2>&1; then
	node_ok=0 why="node is not installed"
elif [ ! -d tests/node/node_modules/chessops ]; then
	node_ok=0 why="no tests/node/node_modules: npm ci in tests/node"
fi

check() { # NAME FILE
	local name=$1 bad=""
	vchess-convert -j 1 "$2" >"$T/t1.pgn" 2>/dev/null
	vchess-convert -j 1 -t xml "$2" >"$T/x.xml" 2>/dev/null
	vchess-convert -j 1 "$T/x.xml" >"$T/t2.pgn" 2>/dev/null
	cmp -s "$T/t1.pgn" "$T/t2.pgn" || bad="$bad text->xml->text"
	if command -v xmllint >/dev/null 2>&1; then
		xmllint --stream --noout --relaxng "$RNG" "$T/x.xml" >/dev/null 2>"$T/lint" ||
			bad="$bad schema($(head -c 200 "$T/lint" | tr '\n' ' '))"
	fi
	vchess-convert -j 1 -t json-lines "$2" >"$T/j.json" 2>/dev/null
	local xc jc
	xc=$(grep -o ' clk="' "$T/x.xml" | wc -l)
	jc=$(grep -o '"clk":"' "$T/j.json" | wc -l)
	[ "$xc" = "$jc" ] || bad="$bad clk($xc in XML, $jc in JSON)"
	[ "$xc" -gt 0 ] || bad="$bad no-clk"
	local cmp_note="chessops not run: $why"
	if [ $node_ok = 1 ]; then
		if node tests/node/chessops-comments.mjs <"$T/j.json" >"$T/c.out" 2>&1; then
			cmp_note="as chessops reads them: $(tail -n 1 "$T/c.out")"
		else
			bad="$bad chessops"
		fi
	fi
	if [ -z "$bad" ]; then
		echo "ok annotations-$name: $xc clocks; $cmp_note"
	else
		echo "not ok annotations-$name:$bad"
		[ -f "$T/c.out" ] && sed 's/^/    /' "$T/c.out" | head -n 8
	fi
	rm -f "$T/c.out"
}

check corpus corpora/chess/annotations.pgn
for a in standard/lichess-magnus-2018-2022.pgn.gz variant/lichess-other-variants.pgn.gz; do
	name=$(basename "$a" .pgn.gz)
	if [ ! -f "$CORPORA/$a" ]; then
		echo "skip annotations-$name # no $CORPORA/$a"
		continue
	fi
	vchess-convert -j 1 --select 'game=1-2000' "$CORPORA/$a" >"$T/$name.pgn" 2>/dev/null
	check "$name" "$T/$name.pgn"
done
