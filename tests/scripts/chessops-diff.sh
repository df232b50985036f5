#!/usr/bin/env bash
# vchess against chessops, lichess's own rules library (an independent
# model), on every lichess variant: positions reached by seeded random play
# in chessops (tests/node/chessops-suite.mjs), each with chessops's node
# counts at depth 1 and 2, checked by vchess-perft --suite.  The positions
# are read as chessops writes them (three-check counters, crazyhouse hands
# and promoted pieces), so position strings are tested too.
#
#   FULL=1 runs ten times as many positions, to depth 3.
# Needs node and tests/node/node_modules (npm ci in tests/node, as .ci/run
# does); skipped with the reason when either is missing.
set -u
# Compared with chessops in make check only: under the sanitizers
# (make san sets VCHESS_SAN=1) it skips, the C code it drives running there
# in t_genval, t_diff, t_bb and the goldens (random games of every variant).
if [ "${VCHESS_SAN:-0}" = 1 ]; then
	echo "skip chessops-diff: compared with chessops in make check; the same C code runs under the sanitizers in the unit tests"
	exit 0
fi
node_dir=tests/node
positions=30 depth=2
if [ "${FULL:-0}" = 1 ]; then
	positions=300
	depth=3
fi
pairs="chess:chess antichess:antichess kingofthehill:king-of-the-hill 3check:three-check
atomic:atomic horde:horde racingkings:racing-kings crazyhouse:crazyhouse"
if ! command -v node >/dev/null 2>&1; then
	for p in $pairs; do echo "skip chessops-${p%%:*} # node is not installed"; done
	exit 0
fi
if [ ! -d "$node_dir/node_modules/chessops" ]; then
	for p in $pairs; do echo "skip chessops-${p%%:*} # no $node_dir/node_modules: npm ci in $node_dir"; done
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
seed=20261201
for p in $pairs; do
	rules=${p%%:*} variant=${p#*:}
	suite=$tmp/$rules.perft
	if ! node "$node_dir/chessops-suite.mjs" "$rules" "$positions" "$seed" "$depth" >"$suite" \
		2>"$tmp/err"; then
		echo "not ok chessops-$rules: chessops-suite.mjs failed"
		sed 's/^/    /' "$tmp/err"
		continue
	fi
	out=$(vchess-perft --variant "$variant" --suite "$suite" 2>&1)
	if [ $? -eq 0 ]; then
		echo "ok chessops-$rules: $(printf '%s\n' "$out" | tail -n 1) ($variant)"
	else
		echo "not ok chessops-$rules: vchess-perft --variant $variant disagrees with chessops"
		printf '%s\n' "$out" | grep -v '^ok ' | head -n 20 | sed 's/^/    /'
	fi
done
