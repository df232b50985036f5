#!/usr/bin/env bash
# Round trips of vchess-convert on every archive of corpora/ and on the real
# archives of corpora/MANIFEST that make corpora put in $CORPORA (each one
# absent is skipped):
#   T1 = text(A)               canonical text, broken games kept
#   text(T1) = T1              text -> text is idempotent after the first pass
#   text(xml(A)) = T1          text -> XML -> text equals text -> text
#   xml(text(X)) = X           XML -> text -> XML is stable, for X = xml(T1)
# and every XML written passes xmllint --relaxng formats/xml/vchess.rng; the
# JSON lines parse (when python3 is there).
#
# Large archives are cut to their first CONVERT_GAMES games (default 2000) to
# keep the test short (200 under make san); CONVERT_FULL=1 takes them whole (a benchmark:
# minutes).
set -u
C=${CORPORA:-corpora/real}
N=${CONVERT_GAMES:-2000}
# under the sanitizers (make san), 200: the same code on fewer games
[ -z "${CONVERT_GAMES:-}" ] && [ "${VCHESS_SAN:-0}" = 1 ] && N=200
T=${TMPDIR:-/tmp}
RNG=formats/xml/vchess.rng
have_xmllint=0
command -v xmllint >/dev/null 2>&1 && have_xmllint=1
have_python=0
command -v python3 >/dev/null 2>&1 && have_python=1
[ $have_xmllint = 1 ] || echo "skip xmllint-checks # xmllint absent (apt-get install libxml2-utils)"

conv() { vchess-convert --keep-broken "$@" 2>/dev/null; }

# roundtrip NAME FILE [SELECT]: the checks above on one archive
roundtrip() {
	local name=$1 file=$2 sel=() bad=""
	[ $# -ge 3 ] && sel=(--select "$3")
	conv "${sel[@]}" "$file" >"$T/t1.pgn"
	if [ ! -s "$T/t1.pgn" ]; then
		echo "not ok $name: no canonical text"
		return
	fi
	conv "$T/t1.pgn" >"$T/t2.pgn"
	cmp -s "$T/t1.pgn" "$T/t2.pgn" || bad="$bad text->text"
	conv -t xml "${sel[@]}" "$file" >"$T/x0.xml"
	conv "$T/x0.xml" >"$T/t3.pgn"
	cmp -s "$T/t1.pgn" "$T/t3.pgn" || bad="$bad text->xml->text"
	conv -t xml "$T/t1.pgn" >"$T/x1.xml"
	conv "$T/x1.xml" >"$T/t4.pgn"
	conv -t xml "$T/t4.pgn" >"$T/x2.xml"
	cmp -s "$T/x1.xml" "$T/x2.xml" || bad="$bad xml->text->xml"
	if [ $have_xmllint = 1 ]; then
		for x in x0 x1; do
			xmllint --stream --noout --relaxng "$RNG" "$T/$x.xml" >/dev/null 2>"$T/lint" ||
				bad="$bad schema($x: $(head -c 200 "$T/lint" | tr '\n' ' '))"
		done
	fi
	if [ $have_python = 1 ]; then
		conv -t json-lines "${sel[@]}" "$file" >"$T/j.json"
		python3 -c 'import json,sys
n=0
for line in open(sys.argv[1], encoding="utf-8"):
    json.loads(line); n+=1' "$T/j.json" 2>"$T/jerr" || bad="$bad json($(tail -1 "$T/jerr"))"
	fi
	if [ -z "$bad" ]; then
		echo "ok $name: $(grep -c '^\[' "$T/t1.pgn") tag lines"
	else
		echo "not ok $name:$bad"
		diff "$T/t1.pgn" "$T/t3.pgn" 2>/dev/null | head -6 | sed 's/^/    /'
	fi
	rm -f "$T"/t[1-4].pgn "$T"/x[0-2].xml "$T/j.json"
}

for f in corpora/*/*.pgn; do
	roundtrip "corpora/${f#corpora/}" "$f"
done

if [ ! -d "$C" ]; then
	echo "skip shared-corpora # $C absent"
	exit 0
fi
mapfile -t real < <(awk '!/^#/ && NF { print $1 }' corpora/MANIFEST)
for a in "${real[@]}"; do
	case $a in standard/*.pgn.gz | variant/*.pgn.gz | edge-cases/*.pgn) ;; *) continue ;; esac
	f=$C/$a
	if [ ! -f "$f" ]; then
		echo "skip shared/$a # $f absent"
	elif [ "${CONVERT_FULL:-0}" = 1 ] || [ "${a%.gz}" = "$a" ]; then
		roundtrip "shared/$a" "$f"
	else
		# the first N games, cut once (reading the whole archive at every
		# pass would take most of the time)
		gzip -dc "$f" | awk -v n="$N" '/^\[Event /{ if (++k > n) exit } { print }' >"$T/a.pgn"
		roundtrip "shared/$a (games 1-$N)" "$T/a.pgn"
		rm -f "$T/a.pgn"
	fi
done
exit 0
