#!/usr/bin/env bash
# The error catalogue: every diagnostic code the sources can emit is
# documented in a manual page (".It Cm CODE"), and is triggered by at least
# one test: the golden tests run again with VCHESS_SHOW_CODES=1, which makes
# the tools print "error[CODE]:", plus the extra inputs below.  The few codes
# no command line can reach are listed with the unit test that reaches them
# or the reason none can.
# Under the sanitizers (make san sets VCHESS_SAN=1) it skips: it checks the
# catalogue and the manual pages, which the check run does, and reruns the
# goldens, which the sanitizer run already runs.
set -u
if [ "${VCHESS_SAN:-0}" = 1 ]; then
	echo "skip diag-codes: the catalogue is checked in make check; the goldens it reruns run under the sanitizers already"
	exit 0
fi
B=${VCHESS_BUILD:-build}
# (lines that read a variant file's keys, with key_is, get_result and the
# rule switches' table, name keys, not codes; so do lines marked so)
src_codes=$(grep -hvE 'key_is\(|get_result\(|, VC_R_[A-Z_]+ \}|/\* not codes \*/' lib/*/*.c |
	grep -ohE '"(oom|io|gzip|eco|move|mark|strict|variant|var|result|fen|setup|tag|limit|comment|nul|char|garbage|yaml|threads|no|piece|board|square|xml|select|json|draw|annot|sico|wall|render)(-[a-z0-9]+)+"|"(oom|garbage|threads|duplicate)"' |
	tr -d '"' | grep -v -- '-$' | sort -u)
if [ "$(printf '%s\n' "$src_codes" | grep -c .)" -lt 50 ]; then
	echo "not ok diag-codes: fewer than 50 codes found in lib/*/*.c: is the layout still lib/LAYER/*.c?"
	exit 1
fi
man_codes=$(cat man/*/*.[1-7] 2>/dev/null | grep -oE '(^\.It|,) Cm [a-z][a-z0-9-]*' | awk '{print $NF}' | sort -u)
declare -A exempt=(
	[oom]="out of memory: reached only by a failing allocation"
	[no-memory]="out of memory: reached only by a failing allocation"
	[threads]="thread creation failing: not reachable from a test"
	[board-size]="library API only: tests/unit/t_core.c diagram_errors"
	[piece-unknown]="library API only: a tool checks the piece first"
	[square-off-board]="library API only: a tool checks the square first"
	[render-empty]="library API only: vchess-render always draws something"
	[render-variants]="library API only: a sheet is drawn from one game"
	[limit-game-size]="tests/unit/t_pgn.c, with a small limit (the default is 64 MiB)"
	[io-write]="tests/unit/t_base.c, a sink on a full device"
)
[ -d "$B/bin" ] && PATH=$(cd "$B/bin" && pwd):$PATH
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
seen="$tmp/seen"
: >"$seen"
export VCHESS_SHOW_CODES=1
collect() { grep -aoE '(error|warning|note|fatal)\[[a-z0-9-]+\]' | sed 's/.*\[\(.*\)\]/\1/' >>"$seen"; }
for d in tests/golden/*/; do
	[ -f "$d/cmd" ] || continue
	t=$(mktemp -d)
	(TMPDIR=$t VCHESS_SHOW_CODES=1 bash "$d/cmd" </dev/null 2>&1 >/dev/null) | collect
	rm -rf "$t"
done
# inputs for codes no golden reaches
{
	vchess-validate corpora/ 2>&1                                   # io-read: a directory
	printf 'not gzip' | gzip -c | head -c 12 >"$tmp/short.gz"
	(gzip -c corpora/chess/example.pgn | head -c 30; head -c 200 /dev/urandom) >"$tmp/bad.gz"
	vchess-validate "$tmp/bad.gz" 2>&1                              # gzip-invalid
	(gzip -c corpora/chess/example.pgn; printf 'junk') >"$tmp/trail.gz"
	vchess-validate "$tmp/trail.gz" 2>&1                            # gzip-trailing
	python3 -c "print('[Event \"x\"]\n\n1. e4 ' + ')' * 1200 + ' *')" | vchess-validate - 2>&1 # limit-diags
	printf '[Event "x"]\n\n1. e4 (1. d4 1-0) *\n' | vchess-validate - 2>&1 # result-in-variation
	printf '[Event "x"]\n[SetUp "1"]\n\n1. e4 *\n' | vchess-validate - 2>&1 # setup-no-fen
	printf '[Event "x"]\n[SetUp "0"]\n[FEN "8/8/8/8/8/8/8/K6k w - - 0 1"]\n\n1. Kb1 *\n' | vchess-validate - 2>&1
	printf '[Event "x"]\n[FEN "8/8/8/8/8/8/8/K6k w - - 0 1"]\n\n1. Kb1 *\n' | vchess-validate --strict - 2>&1
	printf '[Event "x"]\n[FEN "8/8/8/8/9/8/8/K6k w - - 0 1"]\n\n1. Kb1 *\n' | vchess-validate - 2>&1 # fen-invalid
	printf '[Event "x"]\n\n( 1. d4 ) 1. e4 *\n' | vchess-validate - 2>&1  # var-misplaced
	printf '[Event "x"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 e.p. *\n' | vchess-validate - 2>&1 # mark-ep
	printf '[Event "x"]\n\n3. e4 *\n' | vchess-validate --strict - 2>&1    # strict-move-number
	printf '[Event "x"]\n[Result "1-0"]\n\n1. e4 0-1\n' | vchess-validate - 2>&1  # result-mismatch
	printf '[Event "x"]\n\n1. e4 e5 2. Nf3 a6 3. Nxe5 Qe7 4. d4 Qxe5+ *\n' | vchess-validate --strict - 2>&1
	printf '[Event "x"]\n\n1. f3 e5 2. g4 Qh4+ *\n' | vchess-validate - 2>&1 # mark-check
	printf '[Event "x"]\n\n1. e4 N@e5 *\n' | vchess-validate - 2>&1        # move-drop
	printf '[Variant "Crazyhouse"]\n\n1. e4 N@e5 *\n' | vchess-validate - 2>&1
	printf '[Event "x"]\n\n1. e4 e5 2. d3d4 *\n' | vchess-validate - 2>&1  # move-no-piece
	printf '[Event "x"]\n\n1. e4 e5 2. Nxf3 *\n' | vchess-validate - 2>&1  # mark-capture
	printf '[Event "x]\n\n1. e4 *\n' | vchess-validate - 2>&1            # tag-syntax
	printf '[Event "x"]\n\n1. e4 (1. d4 *\n' | vchess-validate - 2>&1    # var-unclosed
	printf '[Event "x"]\n\n1. e4 e5 2. ?? *\n' | vchess-validate - 2>&1
	printf '[Event "x"]\n\n1. e4 e5 2. Xf3 *\n' | vchess-validate - 2>&1  # move-unknown-piece
	printf '[Event "x"]\n\n1. e4 e5 2. Ke3 Ke6 3. O-O *\n' | vchess-validate - 2>&1 # move-castle
	printf '[Event "x"]\n\n1. e4 e5 2. f4 Qh4+ 3. g3 Qxg3+ 4. hxg3 Bb4 5. Nf3 Bxd2+ 6. Bxd2 d5 7. exd5 *\n' | vchess-validate - 2>&1
	printf '[Event "x"]\n\n1. e4 f5 2. Qh5+ g6 3. Qxg6+ hxg6 4. Bd3 Rxh2 5. Rxh2 Kf7 6. a4 Kf6 *\n' | vchess-validate - 2>&1
	printf 'name: x\n' >"$tmp/v.yaml"; vchess-variant check "$tmp/v.yaml" 2>&1
	printf 'name: [x\n' >"$tmp/s.yaml"; vchess-variant check "$tmp/s.yaml" 2>&1
	vchess-validate --variant nonesuch corpora/chess/example.pgn 2>&1
	printf '[Event "x"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# Ke7 1-0\n' | vchess-validate - 2>&1 # move-after-end
	printf '[Event "x"]\n[SetUp "1"]\n[FEN "k7/8/1Q6/8/8/8/8/7K w - - 0 1"]\n\n1. Kg1 Kb8 *\n' | vchess-validate - 2>&1
	printf '[Event "x"]\n\n1. e4 e5 2. f4 exf3 3. Nf3 d6 4. fxe6 *\n' | vchess-validate - 2>&1
	printf '[Variant "SC-Chess"]\n\n1. e4 d5 2. exd5 Qxd5 3. d4 Q*e4 *\n' | vchess-validate - 2>&1
	printf '[Event "x"]\n[SetUp "1"]\n[FEN "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"]\n\n1. b8 *\n' | vchess-validate - 2>&1 # move-promotion
	printf '[Event "x"]\n\n1. e4 e5 2. Nf3 Nf6 3. Nc3 Nc6 4. Nd5 Nd4 5. Nxf6+ gxf6 6. Ne5 d6 7. Nc4 Be6 8. Ne3 Bh6 9. Nd5 Bxd5 10. exd5 Nf3+ 11. gxf3 Kd7 12. Ke2 Qg8 13. Kd3 Qg3 14. Kc4 Qxh2 15. Rxh2 Bxd2 16. Bxd2 Rag8 17. Qe2 Rg1 18. Rxg1 Rg8 19. Rxg8 b5+ 20. Kxb5 c6+ 21. dxc6+ Ke6 22. Qc4+ d5 23. Qxd5# 1-0\n' | vchess-validate - 2>&1
} | collect
sort -u -o "$seen" "$seen"
for c in $src_codes; do
	doc=no
	grep -qxF -- "$c" <<<"$man_codes" && doc=yes
	if [ $doc = no ]; then
		echo "not ok code-$c: not documented in any manual page"
		continue
	fi
	if grep -qxF -- "$c" "$seen"; then
		echo "ok code-$c"
	elif [ -n "${exempt[$c]:-}" ]; then
		echo "ok code-$c # not triggered: ${exempt[$c]}"
	else
		echo "not ok code-$c: no test triggers it"
	fi
done
