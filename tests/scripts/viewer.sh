#!/usr/bin/env bash
# The web page of vchess-render -T html in a browser: tests/node/viewer-test.mjs
# drives Debian's chromium through puppeteer-core (tests/node, npm ci) over random
# games of every built-in variant (t_genval --write san) and the archives of
# corpora/, stepping through every ply and clicking every move of every
# variation, and compares what the page shows with vchess's own positions; the
# first games' diagrams against vchess-render -T svg; no console error.
# Three scripts, so that each has the runner's time: viewer.sh the random
# games, viewer-corpora.sh (VIEWER_PART=corpora) the archives of corpora/,
# viewer-measure.sh (VIEWER_PART=measure), with the real archives, a page of
# the first 1,000 games of the lichess archive (size, first paint, a step).
# FULL=1 plays longer and more random games, and compares every game's
# diagrams.  Skips when chromium, node or the npm packages are missing.
# Under the sanitizers (make san sets VCHESS_SAN=1) the three skip: the time is
# the browser's, and the C code they run, vchess-render -T html, runs under the
# sanitizers in render-html.sh; the check run drives the pages.
set -u
part=${VIEWER_PART:-random}
if [ "${VCHESS_SAN:-0}" = 1 ]; then
	echo "skip viewer${VIEWER_PART:+-$VIEWER_PART}: the browser runs in make check; under the sanitizers render-html.sh runs the same C code"
	exit 0
fi
B=${VCHESS_BUILD:-build}
node_dir=tests/node
chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
	echo "skip viewer: no chromium at $chromium (Debian: apt-get install chromium)"
	exit 0
fi
if ! command -v node >/dev/null 2>&1; then
	echo "skip viewer: no node (Debian: apt-get install nodejs npm)"
	exit 0
fi
if [ ! -d "$node_dir/node_modules/puppeteer-core" ]; then
	echo "skip viewer: no $node_dir/node_modules/puppeteer-core (npm ci in $node_dir)"
	exit 0
fi
if [ ! -x "$B/tests/t_genval" ]; then
	echo "skip viewer: no $B/tests/t_genval (make tests)"
	exit 0
fi
tmp=${TMPDIR:-/tmp}/viewer.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

if [ "$part" = measure ]; then
	lichess=$CORPORA/standard/lichess-magnus-2018-2022.pgn.gz
	if [ ! -f "$lichess" ]; then
		echo "skip viewer-measure: no $lichess (make corpora)"
		exit 0
	fi
	zcat "$lichess" | awk '/^\[Event /{n++} n > 1000 {exit} {print}' >"$tmp/lichess-1000.pgn"
	CHROMIUM=$chromium TMPDIR=$tmp node "$node_dir/viewer-test.mjs" --lichess "$tmp/lichess-1000.pgn"
	exit 0
fi
# One page: the archives of corpora/ end to end (broken games and text that is
# no game included); render-game.pgn first: its chess game, with [%cal] and
# [%csl] marks, is the first one whose diagrams are compared with -T svg's.
args=()
[ "${FULL:-0}" = 1 ] && args=(--full)
if [ "$part" = corpora ]; then
	for f in tests/data/render-game.pgn corpora/*/*.pgn; do
		cat "$f"
		echo
	done >"$tmp/corpora.pgn"
	CHROMIUM=$chromium TMPDIR=$tmp node "$node_dir/viewer-test.mjs" "${args[@]}" "$tmp/corpora.pgn"
	exit 0
fi
# One page: random games of every built-in variant.
if [ "${FULL:-0}" = 1 ]; then
	games=6 plies=300
else
	games=1 plies=40
fi
seed=1
for v in $(vchess-variant list | awk '{print $1}'); do
	seed=$((seed + 1))
	"$B/tests/t_genval" --variant "$v" --games "$games" --plies "$plies" --seed "$seed" \
		--write san 2>/dev/null || echo "$v" >>"$tmp/genval-failed"
done >"$tmp/random.pgn"
[ -f "$tmp/genval-failed" ] && echo "not ok viewer: t_genval failed for $(cat "$tmp/genval-failed")"
CHROMIUM=$chromium TMPDIR=$tmp node "$node_dir/viewer-test.mjs" "${args[@]}" "$tmp/random.pgn"
