#!/usr/bin/env bash
# The house rules of doc/DESIGN.md, checked: build-aux/check-house on the
# library as built (layers without an upward call or a cycle, no function
# over 150 lines), the same check failing on planted faults, and no path
# outside the repository anywhere in it.
set -u
B=${VCHESS_BUILD:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CC=${CC:-cc}
command -v "$CC" >/dev/null 2>&1 || CC=cc

out=$(build-aux/check-house . "$B" 2>&1)
if [ $? -eq 0 ]; then
	echo "ok house-library"
else
	echo "not ok house-library: build-aux/check-house . $B"
	printf '%s\n' "$out" | sed 's/^/    /'
fi

# planted: a tree of tiny files compiled into objects, one fault each
plant() { # NAME: the tree in $tmp/NAME; the files follow as "path<TAB>code" lines
	local d=$tmp/$1 path code
	mkdir -p "$d"
	while IFS=$'\t' read -r path code; do
		mkdir -p "$d/src/${path%/*}" "$d/obj/${path%/*}"
		printf '%b\n' "$code" >"$d/src/$path"
		"$CC" -c -o "$d/obj/${path%.c}.o" "$d/src/$path" || return 1
	done
}
expect() { # NAME STATUS PATTERN: check-house on the tree exits STATUS, saying PATTERN
	local got
	got=$(build-aux/check-house "$tmp/$1/src" "$tmp/$1/obj" 2>&1)
	local st=$?
	if [ "$st" -eq "$2" ] && printf '%s\n' "$got" | grep -q -- "$3"; then
		echo "ok house-planted-$1"
	else
		echo "not ok house-planted-$1: exit $st (expected $2), output without '$3':"
		printf '%s\n' "$got" | sed 's/^/    /'
	fi
}
long_fn() { # NAME LINES: a function of LINES lines, head and closing brace included
	local body='' i
	for ((i = 5; i < $2; i++)); do body+='\tx++;\n'; done
	printf 'int %s(void)\\n{\\n\\tint x = 0;\\n%s\\treturn x;\\n}' "$1" "$body"
}

plant upward <<'EOF'
lib/base/a.c	int b_fn(void);\nint a_fn(void) { return b_fn(); }
lib/rules/b.c	int b_fn(void) { return 1; }
EOF
expect upward 1 'layer: lib/base/a.c calls b_fn of lib/rules/b.c, a higher layer (rules above base)'

plant cycle <<'EOF'
lib/rules/c.c	int d_fn(void);\nint c_fn(void) { return d_fn(); }
lib/rules/d.c	int c_fn(void);\nint d_fn(void) { return c_fn(); }
lib/base/e.c	int e_fn(void) { return 0; }
EOF
expect cycle 1 'cycle: lib/rules/[cd].c -> lib/rules/[cd].c ([cd]_fn) -> lib/rules/[cd].c ([cd]_fn)'

plant nolayer <<'EOF'
lib/extra/f.c	int g_fn(void);\nint f_fn(void) { return g_fn(); }
lib/base/g.c	int g_fn(void) { return 0; }
EOF
expect nolayer 1 'layer: lib/extra/f.c is in no layer'

plant clean <<EOF
lib/base/h.c	int h_fn(void) { return 0; }
lib/rules/i.c	int h_fn(void);\n$(long_fn i_fn 150 | sed 's/return x;/return x + h_fn();/')
lib/archive/j.c	/* a state machine: one state a line */\n$(long_fn j_fn 250)
EOF
expect clean 0 'check-house: ok'

plant long <<EOF
lib/base/k.c	$(long_fn k_fn 151)
EOF
expect long 1 'function: k_fn (lib/base/k.c:1) is 151 lines (at most 150)'

plant longsm <<EOF
lib/base/l.c	/* state machine */\n$(long_fn l_fn 251)
EOF
expect longsm 1 'function: l_fn (lib/base/l.c:2) is 251 lines (a state machine may have 250)'

# No path outside the repository: no absolute path to a checkout and no
# sibling directory, but where the corpora manifest documents CORPORA_FROM.
# The checkouts' directory is the repository's parent, unless that is a
# temporary directory (a clone in /tmp), where the sources rightly name
# /tmp/ for their temporary files: then only this checkout's own path.
files=$(git ls-files 2>/dev/null) || files=$(find . -type f ! -path './.git/*' ! -path './build*' | sed 's|^\./||')
up=$(cd .. && pwd)
case $up in
/ | /tmp | /var/tmp) outside=$(pwd)/ ;;
*) outside=$up/ ;;
esac
# (as regular expressions: the checkout's path escaped, and any path up
# into a sibling shared directory)
outside_re=$(printf '%s' "$outside" | sed 's/[][\.*^$]/\\&/g')
hits=$(printf '%s\n' "$files" | grep -v -E '^(corpora/fuzz/|tests/scripts/house\.sh$)' |
	tr '\n' '\0' | xargs -0 -r grep -n -I -E -e "$outside_re" -e '\.\./shared' 2>/dev/null |
	grep -v 'CORPORA_FROM')
if [ -z "$hits" ]; then
	echo "ok house-no-outside-paths"
else
	echo "not ok house-no-outside-paths: paths outside the repository:"
	printf '%s\n' "$hits" | head -n 20 | sed 's/^/    /'
fi
