#!/usr/bin/env bash
# gzip-inflaters.sh - the tools give the same output, messages and exit status whichever
# gzip decoder inflates their input: the library's default (ISA-L's igzip when it was built
# with it) and zlib's (VCHESS_INFLATE=zlib), on good and damaged gzip archives made here
# from corpora/chess/example.pgn: whole, several members, cut in the data, in the header and
# before the trailer, a damaged CRC, a damaged length, a damaged deflate byte, and garbage
# after the last member; from a file and from a pipe, by vchess-convert and vchess-validate.
# Where the lichess archive of corpora/MANIFEST is present, also its first 3 MB and 7 MB: cut
# deep in a large member, where igzip holds back bytes it has decoded (the library then
# decodes the member again with zlib, so that every game before the cut comes out).
set -u
export LC_ALL=C
T=$(mktemp -d "${TMPDIR:-/tmp}/gzip-inflaters.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
src=corpora/chess/example.pgn
if [ ! -f "$src" ]; then
	echo "skip gzip-inflaters # $src absent"
	exit 0
fi
for i in 1 2 3 4 5 6 7 8; do cat "$src"; done >"$T/big.pgn"
gzip -9n <"$T/big.pgn" >"$T/whole.gz"
size=$(wc -c <"$T/whole.gz")
{ gzip -1n <"$src"; gzip -9n <"$T/big.pgn"; gzip -n </dev/null; } >"$T/members.gz"
head -c $((size / 2)) "$T/whole.gz" >"$T/cut-data.gz"
head -c 7 "$T/whole.gz" >"$T/cut-header.gz"
head -c $((size - 3)) "$T/whole.gz" >"$T/cut-trailer.gz"
L=${CORPORA:-corpora/real}/standard/lichess-magnus-2018-2022.pgn.gz
if [ -f "$L" ]; then
	head -c 3000000 "$L" >"$T/lichess-cut3.gz"
	head -c 7000001 "$L" >"$T/lichess-cut7.gz"
fi
# flip one byte at offset OFF of whole.gz
flip() { python3 -c 'import sys
b = bytearray(open(sys.argv[1], "rb").read()); o = int(sys.argv[2]) % len(b); b[o] ^= 0x55
open(sys.argv[3], "wb").write(b)' "$T/whole.gz" "$1" "$T/$2"; }
if command -v python3 >/dev/null 2>&1; then
	flip $((size - 8)) bad-crc.gz
	flip $((size - 2)) bad-length.gz
	flip $((size / 3)) bad-data.gz
	flip 3 bad-flags.gz
fi
{ cat "$T/whole.gz"; printf 'trailing garbage\n'; } >"$T/garbage.gz"

fails=0
n=0
for f in "$T"/*.gz; do
	name=${f##*/}
	for how in file pipe; do
		for tool in "vchess-convert" "vchess-validate --summary"; do
			n=$((n + 1))
			if [ $how = file ]; then
				(cd "$T" && $tool "$name") >"$T/a.out" 2>"$T/a.err"
				echo "status $?" >>"$T/a.err"
				(cd "$T" && VCHESS_INFLATE=zlib $tool "$name") >"$T/b.out" 2>"$T/b.err"
				echo "status $?" >>"$T/b.err"
			else
				$tool - <"$f" >"$T/a.out" 2>"$T/a.err"
				echo "status $?" >>"$T/a.err"
				VCHESS_INFLATE=zlib $tool - <"$f" >"$T/b.out" 2>"$T/b.err"
				echo "status $?" >>"$T/b.err"
			fi
			# the reason of invalid data is the decoder's own words
			sed -i 's/invalid gzip data: .*/invalid gzip data: REASON/' "$T/a.err" "$T/b.err"
			if ! cmp -s "$T/a.out" "$T/b.out" || ! cmp -s "$T/a.err" "$T/b.err"; then
				echo "not ok gzip-inflaters-$name-$how ($tool): the inflaters differ"
				diff "$T/a.err" "$T/b.err" | head -n 6 | sed 's/^/    /'
				fails=$((fails + 1))
			fi
		done
	done
done
[ $fails = 0 ] && echo "ok gzip-inflaters: $n runs alike with both inflaters"
exit 0
