#!/usr/bin/env bash
# Scale: -j N gives byte for byte the output of -j 1, and the GNU parallel
# recipe of vchess-validate(1) gives the summary of a single process.
set -u
C=${CORPORA:-corpora/real} # the real archives of corpora/MANIFEST
same_j() { # name file
	if [ ! -f "$2" ]; then
		echo "skip $1 # $2 absent"
		return
	fi
	local a b
	a=$(vchess-validate -j 1 -v --summary "$2" 2>&1)
	b=$(vchess-validate -j 2 -v --summary "$2" 2>&1)
	if [ "$a" = "$b" ]; then echo "ok $1: -j 2 equals -j 1"; else
		echo "not ok $1: -j 2 differs from -j 1"
		diff <(echo "$a") <(echo "$b") | head -5 | sed 's/^/    /'
	fi
}
# every archive of the repository's corpora: broken games, garbage, BOMs and
# every variant; -j 2 on this machine's cores, -j 5 with more readers than
# cores (each reads batches of games in turn, vc_parallel_run)
for f in corpora/*/*.pgn; do
	same_j "j-$(basename "$(dirname "$f")")-$(basename "$f" .pgn)" "$f"
done
same_j5() { # name file: -j 5 and --strict too
	local a b
	a=$(vchess-validate -j 1 --strict -v --summary "$2" 2>&1)
	b=$(vchess-validate -j 5 --strict -v --summary "$2" 2>&1)
	if [ "$a" = "$b" ]; then echo "ok $1: -j 5 --strict equals -j 1"; else
		echo "not ok $1: -j 5 --strict differs from -j 1"
		diff <(echo "$a") <(echo "$b") | head -5 | sed 's/^/    /'
	fi
}
for f in corpora/chess/broken.pgn corpora/chess/garbage.pgn corpora/sico/*.pgn; do
	same_j5 "j5-$(basename "$(dirname "$f")")-$(basename "$f" .pgn)" "$f"
done
# many games, each handed over in order with its tags and statistics: the
# lichess archive (its first 5,000 games under the sanitizers), -j 3 against
# -j 1, every message and the statistics, which read each game's tags
L=$C/standard/lichess-magnus-2018-2022.pgn.gz
if [ -f "$L" ]; then
	tmpl=$(mktemp)
	if [ "${VCHESS_SAN:-0}" = 1 ]; then
		gzip -dc "$L" | awk '/^\[Event /{n++} n > 5000 {exit} {print}' >"$tmpl"
	else
		gzip -dc "$L" >"$tmpl"
	fi
	a=$(vchess-validate -j 1 -v --summary --stats "$tmpl" 2>&1)
	b=$(vchess-validate -j 3 -v --summary --stats "$tmpl" 2>&1)
	rm -f "$tmpl"
	if [ "$a" = "$b" ]; then echo "ok j-lichess-stats: -j 3 equals -j 1"; else
		echo "not ok j-lichess-stats: -j 3 differs from -j 1"
		diff <(echo "$a") <(echo "$b") | head -5 | sed 's/^/    /'
	fi
else
	echo "skip j-lichess-stats # $L absent"
fi
# a damaged gzip stream read from standard input: the games before the
# damage, then the same error, at every -j
tmpz=$(mktemp)
gzip -c corpora/chess/broken.pgn corpora/chess/example.pgn corpora/chess/tags.pgn | head -c 1200 >"$tmpz"
a=$(vchess-validate -j 1 -v --summary - <"$tmpz" 2>&1)
b=$(vchess-validate -j 3 -v --summary - <"$tmpz" 2>&1)
rm -f "$tmpz"
if [ "$a" = "$b" ] && [ -n "$a" ]; then echo "ok j-damaged-gzip-stdin: -j 3 equals -j 1"; else
	echo "not ok j-damaged-gzip-stdin: -j 3 differs from -j 1"
	diff <(echo "$a") <(echo "$b") | head -5 | sed 's/^/    /'
fi
# progress from several reading workers: each report reaches the caller's
# thread at a hand-over, and the last says the whole file was read, as at -j 1
tmpp=$(mktemp)
for i in $(seq 300); do cat corpora/chess/example.pgn; done >"$tmpp"
lastp() { vchess-validate "$@" --progress=always "$tmpp" 2>&1 >/dev/null | tail -n 1 | sed 's/, [0-9,]* games\/s//'; }
a=$(lastp -j 1)
b=$(lastp -j 3)
rm -f "$tmpp"
case $a in *"100% of"*) ok=1 ;; *) ok=0 ;; esac
if [ $ok = 1 ] && [ "$a" = "$b" ]; then echo "ok j-progress: -j 3's last progress line equals -j 1's"; else
	echo "not ok j-progress: '$b' against '$a'"
fi
same_j j-crazyhouse-360 "$C/variant/crazyhouse-360.pgn.gz"
same_j j-lichess-other "$C/variant/lichess-other-variants.pgn.gz"
same_j j-pgnmentor "$C/standard/pgnmentor-10-players.pgn.gz"

# the recipe: chunks of N games, each numbered from its global first game
recipe() { # name file-or-command games-per-chunk
	if ! command -v parallel >/dev/null; then
		echo "skip $1 # GNU parallel not installed"
		return
	fi
	local single merged tmp
	tmp=$(mktemp -d)
	$2 >"$tmp/in.pgn" || { echo "skip $1 # input absent"; rm -rf "$tmp"; return; }
	single=$(vchess-validate -j 1 --summary "$tmp/in.pgn" 2>/dev/null)
	merged=$(parallel --pipe -N "$3" --recstart '[Event ' --keep-order \
		"vchess-validate -j 1 --first-game \$(( ({#} - 1) * $3 + 1 )) --summary --summary-format=tsv -" \
		<"$tmp/in.pgn" 2>"$tmp/err" | vchess-validate --merge-summaries -)
	local errs_single errs_par
	errs_single=$(vchess-validate -j 1 "$tmp/in.pgn" 2>&1 | sed -n 's/.*: \(game [0-9]*\).*/\1/p')
	errs_par=$(sed -n 's/.*: \(game [0-9]*\).*/\1/p' "$tmp/err")
	if [ "$single" = "$merged" ] && [ "$errs_single" = "$errs_par" ]; then
		echo "ok $1: merged summary equals one process's, game numbers global"
	else
		echo "not ok $1"
		diff <(echo "$single") <(echo "$merged") | head -5 | sed 's/^/    /'
		diff <(echo "$errs_single") <(echo "$errs_par") | head -5 | sed 's/^/    /'
	fi
	rm -rf "$tmp"
}
recipe recipe-broken "cat corpora/chess/broken.pgn" 3
if [ -f "$C/standard/lichess-magnus-2018-2022.pgn.gz" ]; then
	recipe recipe-lichess "gzip -dc $C/standard/lichess-magnus-2018-2022.pgn.gz" 5000
else
	echo "skip recipe-lichess # $C/standard/lichess-magnus-2018-2022.pgn.gz absent"
fi
