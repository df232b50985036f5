#!/usr/bin/env bash
# vchess(3) against lib/vchess.h: every function the header declares is
# documented in the page, by name in its text (".Fn NAME"), not only in a
# prototype; every tool is in SEE ALSO; and every example program of
# EXAMPLES compiles against the library and, run as the page shows it
# ("$ ./NAME ARGS" after the program), prints each line the page shows
# (lines the page folds are looked for as parts of the output).
set -u
B=${VCHESS_BUILD:-build}
CC=${CC:-cc}
command -v "$CC" >/dev/null 2>&1 || CC=cc
page=man/man3/vchess.3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- every function of the header, in the page's text ----
# The preprocessor drops the comments; a declaration is what ends in ';',
# and typedefs of function types are types, not functions.
fns=$("$CC" -E -P -Ilib lib/vchess.h | tr '\n' ' ' | sed 's/;/;\n/g' | grep -v '^ *typedef' |
	grep -oE '\bvc_[a-z0-9_]+ *\(' | sed 's/ *($//' | sort -u)
n=$(printf '%s\n' "$fns" | grep -c .)
if [ "$n" -lt 150 ]; then
	echo "not ok man3-functions: only $n functions found in lib/vchess.h"
else
	missing=$(for f in $fns; do grep -qE "^\.(Fn|Fo) $f( |$)" "$page" || echo "$f"; done)
	if [ -z "$missing" ]; then
		echo "ok man3-functions: the $n functions of vchess.h are in vchess(3)"
	else
		echo "not ok man3-functions: not documented in $page (no '.Fn NAME'):"
		printf '    %s\n' $missing
	fi
fi

# ---- SEE ALSO names every tool ----
see=$(sed -n '/^\.Sh SEE ALSO/,/^\.Sh /p' "$page")
bad=""
for t in tools/vchess-*.c; do
	t=$(basename "$t" .c)
	printf '%s\n' "$see" | grep -q "^\.Xr $t 1" || bad="$bad $t"
done
if [ -z "$bad" ]; then echo "ok man3-see-also"; else echo "not ok man3-see-also: missing$bad"; fi

# ---- the example programs ----
# The EXAMPLES section, its roff escapes undone: blocks that start with
# "#include" are programs; the "$ ./NAME ..." line after one runs it, and
# the lines after that, up to .Ed, are what it prints.
sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' "$page" | sed -e 's/\\e/\\/g' -e 's/\\&//g' |
	awk -v dir="$tmp" '
	/^\.Bd -literal/ { inblock = 1; prog = 0; nlines = 0; next }
	/^\.Ed/ { inblock = 0; if (prog) { close(file) } prog = 0; next }
	inblock && nlines == 0 && /^#include/ { n++; prog = 1; file = dir "/ex" n ".c" }
	inblock && prog { print > file; nlines++; next }
	inblock && /^\$ \.\// && n > 0 && !ran[n] { ran[n] = 1; out = dir "/ex" n ".run";
		print substr($0, 5) > out; close(out); expect = dir "/ex" n ".expect"; showing = 1; nlines++; next }
	inblock && showing { if ($0 !~ /^\.\.\.$/) print > expect; nlines++; next }
	!inblock { if (showing) close(expect); showing = 0 }
	'
libs=$(pkg-config --libs libxml-2.0 zlib yaml-0.1 2>/dev/null)
# ISA-L, where the library was built with it (build/flags holds its build line)
grep -q -- '-DVC_HAVE_ISAL' "$B/flags" 2>/dev/null && libs="$libs -lisal"
for c in "$tmp"/ex*.c; do
	[ -e "$c" ] || { echo "not ok man3-examples: no example program found"; break; }
	k=$(basename "$c" .c)
	# shellcheck disable=SC2086 # flags are words
	if ! $CC ${EXTRA_CFLAGS:-} -Wall -Werror -Ilib -o "$tmp/$k" "$c" "$B/libvchess.a" $libs -lm -pthread \
		${EXTRA_LDFLAGS:-} 2>"$tmp/$k.cc"; then
		echo "not ok man3-$k: the example does not compile"
		sed 's/^/    /' "$tmp/$k.cc" | head -20
		continue
	fi
	if [ ! -f "$tmp/$k.run" ]; then
		echo "ok man3-$k: compiles (the page shows no run)"
		continue
	fi
	read -r name args <"$tmp/$k.run"
	# the arguments name files of the repository: run from it
	out=$(eval "\"$tmp/$k\" $args" 2>&1 </dev/null)
	bad=0
	while IFS= read -r line; do
		[ -z "$line" ] && continue
		case $out in *"$line"*) ;; *) bad=1; echo "    not printed: $line" ;; esac
	done <"$tmp/$k.expect" >"$tmp/$k.miss"
	if ((bad)); then
		echo "not ok man3-$k: ./$name $args does not print what vchess(3) shows"
		cat "$tmp/$k.miss"
		printf '%s\n' "$out" | head -10 | sed 's/^/    got: /'
	else
		echo "ok man3-$k: ./$name $args"
	fi
done
