#!/usr/bin/env bash
# The library others link: make install into a temporary prefix installs
# libvchess.so.VERSION with its SONAME, libvchess.so.MAJOR, and the links
# libvchess.so.MAJOR and libvchess.so; pkg-config finds it under the name
# vchess(3) gives, libvchess; a program compiled as the page says,
# "cc prog.c $(pkg-config --cflags --libs libvchess)", links the shared
# library and runs (with LD_LIBRARY_PATH, since a temporary prefix is no
# place the loader searches), and so do the examples of vchess(3).
set -u
B=${VCHESS_BUILD:-build}
CC=${CC:-cc}
command -v "$CC" >/dev/null 2>&1 || CC=cc
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
version=$(sed -n 's/^#define VC_VERSION "\(.*\)"/\1/p' lib/vchess.h)
major=${version%%.*}

if ! command -v pkg-config >/dev/null 2>&1; then
	echo "skip install: no pkg-config"
	exit 0
fi
# Install what is built, without building again (-o all): this build may
# have flags (sanitizers) that a plain "make" would not repeat.
if ! env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s -o all install BUILD="$B" \
	PREFIX="$prefix" >"$tmp/install.log" 2>&1; then
	echo "not ok install: make install PREFIX=$prefix failed"
	sed 's/^/    /' "$tmp/install.log" | head -20
	exit 0
fi
lib=$prefix/lib
ok=1
[ -f "$lib/libvchess.so.$version" ] && [ ! -L "$lib/libvchess.so.$version" ] || ok=0
[ "$(readlink "$lib/libvchess.so.$major")" = "libvchess.so.$version" ] || ok=0
[ "$(readlink "$lib/libvchess.so")" = "libvchess.so.$major" ] || ok=0
soname=$(readelf -d "$lib/libvchess.so.$version" 2>/dev/null | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$soname" = "libvchess.so.$major" ] || ok=0
if ((ok)); then
	echo "ok install-files: libvchess.so.$version, SONAME $soname, and its links"
else
	echo "not ok install-files: expected libvchess.so.$version with SONAME libvchess.so.$major and two links"
	ls -l "$lib" | sed 's/^/    /'
	echo "    SONAME: $soname"
fi

export PKG_CONFIG_PATH=$lib/pkgconfig
if flags=$(pkg-config --cflags --libs libvchess) && [ "$(pkg-config --modversion libvchess)" = "$version" ]; then
	echo "ok install-pkg-config: pkg-config --cflags --libs libvchess: $flags" | sed "s|$tmp|TMP|g"
else
	echo "not ok install-pkg-config: pkg-config does not find libvchess $version in $PKG_CONFIG_PATH"
	exit 0
fi

cat >"$tmp/prog.c" <<'PROG'
#include <stdio.h>
#include <vchess.h>

int main(void)
{
	struct vc_ctx *ctx = vc_ctx_new();
	struct vc_variant *v = vc_variant_load(ctx, "chess");
	struct vc_position *p = v ? vc_position_new(v) : NULL;
	if (!p)
		return 1;
	printf("vchess %s: perft 3 = %llu\n", VC_VERSION, (unsigned long long)vc_perft(p, 3));
	vc_position_free(p);
	vc_variant_free(v);
	vc_ctx_free(ctx);
	return 0;
}
PROG
# shellcheck disable=SC2086 # the flags are words
if ! $CC ${EXTRA_CFLAGS:-} -o "$tmp/prog" "$tmp/prog.c" $flags ${EXTRA_LDFLAGS:-} 2>"$tmp/cc.log"; then
	echo "not ok install-compile: cc prog.c \$(pkg-config --cflags --libs libvchess)"
	sed 's/^/    /' "$tmp/cc.log" | head -20
	exit 0
fi
echo "ok install-compile"
needed=$(readelf -d "$tmp/prog" | sed -n 's/.*Shared library: \[\(libvchess[^]]*\)\]/\1/p')
out=$(LD_LIBRARY_PATH=$lib "$tmp/prog" 2>&1)
if [ "$needed" = "libvchess.so.$major" ] && [ "$out" = "vchess $version: perft 3 = 8902" ]; then
	echo "ok install-run: the program needs libvchess.so.$major and runs"
else
	echo "not ok install-run: needs '$needed', printed:"
	printf '%s\n' "$out" | sed 's/^/    /'
fi
# the static library, as vchess(3) SYNOPSIS links it
# shellcheck disable=SC2046,SC2086
if $CC ${EXTRA_CFLAGS:-} -o "$tmp/prog-static" "$tmp/prog.c" $(pkg-config --cflags libvchess) \
	"$(pkg-config --variable=libdir libvchess)/libvchess.a" \
	$(pkg-config --static --libs libvchess | sed 's/-lvchess//') ${EXTRA_LDFLAGS:-} 2>"$tmp/cc.log" &&
	! readelf -d "$tmp/prog-static" | grep -q 'libvchess' &&
	[ "$(LD_LIBRARY_PATH= "$tmp/prog-static")" = "vchess $version: perft 3 = 8902" ]; then
	echo "ok install-static"
else
	echo "not ok install-static: the static form of vchess(3) SYNOPSIS"
	sed 's/^/    /' "$tmp/cc.log" | head -10
fi
# without the path the loader must not find it: the program did use the
# installed shared library, not a copy of the code
if LD_LIBRARY_PATH= "$tmp/prog" >/dev/null 2>&1 && ! ldconfig -p 2>/dev/null | grep -q "libvchess.so.$major "; then
	echo "not ok install-shared: the program ran without the library's directory"
else
	echo "ok install-shared"
fi

if env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s -o all uninstall BUILD="$B" PREFIX="$prefix" \
	>/dev/null 2>&1 && [ -z "$(find "$prefix" -type f -o -type l)" ]; then
	echo "ok install-uninstall"
else
	echo "not ok install-uninstall: left behind:"
	find "$prefix" -type f -o -type l | sed "s|$tmp|    TMP|"
fi
