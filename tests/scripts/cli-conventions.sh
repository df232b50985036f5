#!/usr/bin/env bash
# The conventions every tool keeps (getopt_long, one message style, a help
# that says everything): for each tools/vchess-NAME.c, --help exits 0 and
# prints one line per option, an example and the manual's name, every line
# at most 80 columns; each of its options is documented in the manual page
# (".Fl -name", ".Fl x"); an unknown option says so in the one format and
# exits 2; --version exits 0.  Every manual page has EXAMPLES, and every
# man1 page an EXIT STATUS.  Every manual page is clean under mandoc's lint at
# level error (skipped, with the reason, where mandoc is not installed).
set -u
B=${VCHESS_BUILD:-build}
[ -d "$B/bin" ] && PATH=$(cd "$B/bin" && pwd):$PATH
for src in tools/vchess-*.c; do
	t=$(basename "$src" .c)
	page=man/man1/$t.1
	help=$("$t" --help 2>&1)
	st=$?
	bad=""
	[ $st -eq 0 ] || bad="$bad; --help exits $st"
	printf '%s\n' "$help" | grep -q '^Example:$' || bad="$bad; no 'Example:'"
	printf '%s\n' "$help" | grep -qx "Full manual: man 1 $t" || bad="$bad; no 'Full manual: man 1 $t'"
	long=$(printf '%s\n' "$help" | awk 'length > 80 {print "    " $0}')
	[ -z "$long" ] || bad="$bad; lines over 80 columns:
$long"
	for o in $(printf '%s\n' "$help" | grep -oE '^  (-[A-Za-z], |    )--[a-z-]+' | grep -oE -- '--[a-z-]+$'); do
		[ "$o" = --help ] || [ "$o" = --version ] && continue
		grep -qE "^\.(It|Op) .*Fl -?${o#--}( |$)" "$page" || grep -qE "Fl -${o#--}( |$)" "$page" ||
			bad="$bad; $o not in $page"
	done
	for o in $(printf '%s\n' "$help" | grep -oE '^  -[A-Za-z],' | cut -c4); do
		grep -qE "Fl $o( |$)" "$page" || bad="$bad; -$o not in $page"
	done
	if [ -z "$bad" ]; then echo "ok help-$t"; else echo "not ok help-$t$bad"; fi

	err=$("$t" --no-such-option 2>&1 >/dev/null)
	st=$?
	first=$(printf '%s\n' "$err" | head -n 1)
	if [ $st -eq 2 ] && [ "$first" = "$t: error: unknown option '--no-such-option'" ] &&
		printf '%s\n' "$err" | grep -qx "Try '$t --help' for more information."; then
		echo "ok misuse-$t"
	else
		echo "not ok misuse-$t: exit $st, stderr:"
		printf '%s\n' "$err" | sed 's/^/    /'
	fi
	if "$t" --version | grep -q "^$t (vchess) "; then
		echo "ok version-$t"
	else
		echo "not ok version-$t"
	fi
done
for page in man/man*/*.[1-7]; do
	if grep -q '^\.Sh EXAMPLES' "$page"; then
		echo "ok examples-$(basename "$page")"
	else
		echo "not ok examples-$(basename "$page"): no EXAMPLES section"
	fi
done
for page in man/man1/*.1; do
	if grep -q '^\.Sh EXIT STATUS' "$page"; then
		echo "ok exit-status-$(basename "$page")"
	else
		echo "not ok exit-status-$(basename "$page"): no EXIT STATUS section"
	fi
done
if command -v mandoc >/dev/null 2>&1; then
	for page in man/man*/*.[1-7]; do
		if err=$(mandoc -T lint -W error "$page" 2>&1) && [ -z "$err" ]; then
			echo "ok lint-$(basename "$page")"
		else
			echo "not ok lint-$(basename "$page"): mandoc -T lint -W error:"
			printf '%s\n' "$err" | sed 's/^/    /'
		fi
	done
else
	echo "skip lint: mandoc is not installed"
fi
