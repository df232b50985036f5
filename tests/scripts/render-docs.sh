#!/usr/bin/env bash
# The README's pictures: doc/img/NAME.svg is the start position of the
# built-in variant NAME as vchess-render draws it.  Each one must be what
# the tool draws now; a built-in without a picture is reported as a skip.
#
#	tests/scripts/render-docs.sh		compare
#	REGEN=1 tests/scripts/render-docs.sh	(re)write them all, then review with git diff
set -u
cd "$(dirname "$0")/../.." || exit 2
write=0
[ "${REGEN:-0}" = 1 ] && write=1
[ "${1:-}" = --write ] && write=1
tmp=${TMPDIR:-/tmp}/render-docs.$$
mkdir -p "$tmp" doc/img
trap 'rm -rf "$tmp"' EXIT
names=$(vchess-variant list | awk '{print $1}') || {
	echo "not ok render-docs: vchess-variant list failed"
	exit 1
}
for v in $names; do
	if ! vchess-render -T svg --variant "$v" -o "$tmp/$v.svg"; then
		echo "not ok render-docs $v: vchess-render failed"
		continue
	fi
	if [ "$write" = 1 ]; then
		cmp -s "$tmp/$v.svg" "doc/img/$v.svg" || cp "$tmp/$v.svg" "doc/img/$v.svg"
		echo "ok render-docs $v: written"
	elif [ ! -f "doc/img/$v.svg" ]; then
		echo "skip render-docs $v: no doc/img/$v.svg yet (REGEN=1 tests/scripts/render-docs.sh)"
	elif cmp -s "$tmp/$v.svg" "doc/img/$v.svg"; then
		echo "ok render-docs $v"
	else
		echo "not ok render-docs $v: doc/img/$v.svg is not what vchess-render draws now"
		echo "    (REGEN=1 tests/scripts/render-docs.sh rewrites it; review the picture)"
	fi
done
for f in doc/img/*.svg; do
	[ -f "$f" ] || continue
	v=$(basename "$f" .svg)
	grep -qx -- "$v" <<<"$names" || echo "not ok render-docs: $f: no built-in variant '$v'"
done
