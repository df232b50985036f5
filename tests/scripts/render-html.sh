#!/usr/bin/env bash
# The web page of vchess-render -T html without a browser: for every archive of
# corpora/ (and one of random games of every built-in variant), the page is
# written, passes HTML Tidy with neither error nor warning, refers to nothing
# outside itself (no src attribute, every href and url() a fragment of the
# page), and lists every game of the archive (vchess-validate --summary counts
# them), broken ones with their error; --game N writes that game alone, and a
# game that is not there is refused.  tests/scripts/viewer.sh opens the pages
# in a browser.
set -u
B=${VCHESS_BUILD:-build}
tmp=${TMPDIR:-/tmp}/render-html.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
have_tidy=1
if ! command -v tidy >/dev/null 2>&1; then
	have_tidy=0
	echo "skip render-html-tidy: no tidy (Debian: apt-get install tidy)"
fi

files=(corpora/*/*.pgn)
if [ -x "$B/tests/t_genval" ]; then
	for v in $(vchess-variant list | awk '{print $1}'); do
		"$B/tests/t_genval" --variant "$v" --games 1 --plies 30 --seed 7 --write san 2>/dev/null
	done >"$tmp/random.pgn"
	files+=("$tmp/random.pgn")
fi

# the number of rows of a page's index
index_rows() {
	awk '/id="vc-index">/ {on = 1} on && /^\[[0-9]/ {print} on && /<\/script>/ {exit}' "$1"
}
rows() {
	index_rows "$1" | wc -l
}

for f in "${files[@]}"; do
	name=$(basename "$f" .pgn)
	[ "$f" = "$tmp/random.pgn" ] || name=$(basename "$(dirname "$f")")/$name
	page=$tmp/page.html
	vchess-render -T html -o "$page" "$f" 2>"$tmp/err"
	st=$?
	if [ ! -s "$page" ] || [ $st -gt 1 ]; then
		echo "not ok render-html $name: vchess-render -T html: exit $st"
		sed 's/^/    /' "$tmp/err" | head -5
		continue
	fi
	problems=()
	if [ $have_tidy = 1 ]; then
		tidy -errors -q "$page" >/dev/null 2>"$tmp/tidy"
		[ -s "$tmp/tidy" ] && problems+=("tidy: $(head -3 "$tmp/tidy" | tr '\n' ' ')")
	fi
	ext=$(grep -oE '(src|href)="[^#"][^"]*"|url\([^#)][^)]*\)|@import' "$page" | sort -u | head -3)
	[ -n "$ext" ] && problems+=("refers outside the page: $(echo "$ext" | tr '\n' ' ')")
	want=$(vchess-validate --summary --quiet "$f" 2>/dev/null | sed -n 's/^games \([0-9]*\).*/\1/p')
	got=$(rows "$page")
	[ "$got" = "$want" ] || problems+=("the index lists $got games, vchess-validate counts $want")
	# a page with broken games says so, once, and exits 1
	if grep -q 'render-html-broken\|do not replay\|does not replay' "$tmp/err"; then
		[ $st = 1 ] || problems+=("broken games, but exit $st")
	elif [ $st != 0 ]; then
		problems+=("exit $st: $(head -2 "$tmp/err" | tr '\n' ' ')")
	fi
	if ((${#problems[@]})); then
		echo "not ok render-html $name"
		printf '    %s\n' "${problems[@]}"
	else
		echo "ok render-html $name ($got games)"
	fi
done

# broken games are rows with their error
page=$tmp/broken.html
vchess-render -T html -o "$page" corpora/chess/broken.pgn 2>/dev/null
n=$(index_rows "$page" | grep -vc ',"",-\?[01]\]\]\?}\?\(</script>\)\?,\?$')
want=$(vchess-validate --summary --quiet corpora/chess/broken.pgn 2>/dev/null |
	sed -n 's/^invalid \([0-9]*\).*/\1/p')
if [ -n "$want" ] && [ "$n" -ge "$want" ] && [ "$n" -gt 0 ]; then
	echo "ok render-html-broken ($n rows with their error)"
else
	echo "not ok render-html-broken: $n rows with an error, vchess-validate: ${want:-?} invalid"
fi

# --game N: that game alone; a number that is not there is refused
vchess-render -T html --game 3 -o "$tmp/one.html" corpora/io/mechanics.pgn 2>/dev/null
if [ "$(rows "$tmp/one.html")" = 1 ] && grep -q 'id="vc-g3"' "$tmp/one.html"; then
	echo "ok render-html-one-game"
else
	echo "not ok render-html-one-game: --game 3 does not write game 3 alone"
fi
vchess-render -T html --game 999 -o "$tmp/none.html" corpora/io/mechanics.pgn 2>"$tmp/err"
st=$?
if [ $st = 1 ] && grep -q 'no game 999' "$tmp/err"; then
	echo "ok render-html-no-game"
else
	echo "not ok render-html-no-game: exit $st, $(head -1 "$tmp/err")"
fi
