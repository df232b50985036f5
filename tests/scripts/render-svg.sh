#!/usr/bin/env bash
# Every SVG picture the renderer makes in the tests must be well-formed XML
# (xmllint --noout) and render to PNG with rsvg-convert without a word on
# standard error: the golden pictures (tests/golden/render-*/stdout), the
# README pictures (doc/img/*.svg), the unit tests' pictures (t_render
# --dump: two-square pieces, dead, neutral and promoted pieces, 26x26), and
# every ply of the test games drawn here.  Skips when the tools are absent
# (Debian: apt-get install libxml2-utils librsvg2-bin).
set -u
if ! command -v xmllint >/dev/null 2>&1 || ! command -v rsvg-convert >/dev/null 2>&1; then
	echo "skip render-svg: needs xmllint and rsvg-convert"
	exit 0
fi
tmp=${TMPDIR:-/tmp}/render-svg.$$
mkdir -p "$tmp/unit" "$tmp/plies" "$tmp/png"
trap 'rm -rf "$tmp"' EXIT

# pictures made here
if [ -x "${VCHESS_BUILD:-build}/tests/t_render" ]; then
	"${VCHESS_BUILD:-build}/tests/t_render" --dump "$tmp/unit" >/dev/null ||
		echo "not ok render-svg: t_render --dump failed"
fi
vchess-render -T svg --game 1 --all-plies "$tmp/plies/game" tests/data/render-game.pgn ||
	echo "not ok render-svg: --all-plies of tests/data/render-game.pgn failed"
vchess-render -T svg --game 2 --all-plies "$tmp/plies/zh" tests/data/render-game.pgn ||
	echo "not ok render-svg: --all-plies of the crazyhouse game failed"
vchess-render -T svg --variant tests/data/render-swap.yaml --game 1 --all-plies "$tmp/plies/swap" \
	tests/data/render-swap.pgn || echo "not ok render-svg: --all-plies of the swap game failed"
vchess-render --game 2 --sheet --every 2 -o "$tmp/plies/zh-sheet.svg" tests/data/render-game.pgn ||
	echo "not ok render-svg: --sheet of the crazyhouse game failed"

n=0
check() { # check NAME FILE
	local name=$1 file=$2 err
	n=$((n + 1))
	if ! err=$(xmllint --noout "$file" 2>&1) || [ -n "$err" ]; then
		echo "not ok svg $name: xmllint"
		printf '%s\n' "$err" | head -5 | sed 's/^/    /'
		return
	fi
	if ! err=$(rsvg-convert -o "$tmp/png/$n.png" "$file" 2>&1) || [ -n "$err" ] ||
		[ ! -s "$tmp/png/$n.png" ]; then
		echo "not ok svg $name: rsvg-convert"
		printf '%s\n' "$err" | head -5 | sed 's/^/    /'
		return
	fi
	echo "ok svg $name"
}
for f in tests/golden/render-*/stdout; do
	head -c 5 "$f" | grep -q '^<?xml' && check "${f%/stdout}" "$f"
done
for f in doc/img/*.svg "$tmp"/unit/*.svg "$tmp"/plies/*/*.svg "$tmp"/plies/*.svg; do
	[ -f "$f" ] && check "${f#"$tmp"/}" "$f"
done
