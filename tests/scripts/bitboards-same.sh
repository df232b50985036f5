#!/usr/bin/env bash
# The bitboard core against the general way, through the command line:
# vchess-validate must write the same, byte for byte (every diagnostic,
# its position and words, the summary), with and without --no-bitboards,
# on each archive of the repository's corpora (broken games included) and
# on the first 2,000 games of the lichess archive when it is present
# (strict mode too).
# t_bb.c compares the library's answers position by position.  Under the
# sanitizers (VCHESS_SAN=1) the strict runs and 500 lichess games suffice.
set -u
san=${VCHESS_SAN:-0}
games=2000
[ "$san" = 1 ] && games=500
C=${CORPORA:-corpora/real}
T=$(mktemp -d "${TMPDIR:-/tmp}/vchess-bbsame.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
same() { # name args...
	local name=$1
	shift
	vchess-validate -j 1 --summary "$@" >"$T/a" 2>&1
	local ra=$?
	vchess-validate -j 1 --summary --no-bitboards "$@" >"$T/b" 2>&1
	local rb=$?
	if [ $ra = $rb ] && cmp -s "$T/a" "$T/b"; then
		echo "ok bitboards-same $name ($(grep -c 'error:' "$T/a") errors)"
	else
		echo "not ok bitboards-same $name: exit $ra and $rb"
		diff "$T/a" "$T/b" | head -n 6 | sed 's/^/    /'
	fi
}
for f in corpora/*/*.pgn; do
	same "${f#corpora/}" "$f"
	[ "$san" = 1 ] || same "${f#corpora/} strict" --strict "$f"
done
L=$C/standard/lichess-magnus-2018-2022.pgn.gz
if [ -f "$L" ]; then
	gzip -dc "$L" | awk -v g="$games" '/^\[Event / { if (++n > g) exit } { print }' >"$T/l.pgn"
	same "lichess $games" "$T/l.pgn"
	same "lichess $games strict" --strict "$T/l.pgn"
else
	echo "skip bitboards-same lichess # $L absent"
fi
