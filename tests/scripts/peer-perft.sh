#!/usr/bin/env bash
# Perft against the peers, live, when they are installed: orthodox against
# Stockfish and Fairy-Stockfish, crazyhouse against Fairy-Stockfish, on the
# positions of tests/perft/*.perft at depth 2 (and the start at depth 4).
set -u
# Compared with Stockfish and Fairy-Stockfish in make check only: under the sanitizers
# (make san sets VCHESS_SAN=1) it skips, the C code it drives running there
# in t_genval, t_diff, t_bb and the goldens (random games of every variant).
if [ "${VCHESS_SAN:-0}" = 1 ]; then
	echo "skip peer-perft: compared with Stockfish and Fairy-Stockfish in make check; the same C code runs under the sanitizers in the unit tests"
	exit 0
fi
uci() { # engine variant fen depth
	printf 'uci\n%sposition fen %s\ngo perft %s\nquit\n' \
		"$([ "$2" = chess ] || echo "setoption name UCI_Variant value $2\n")" "$3" "$4" |
		sed 's/\\n/\n/g' | "$1" 2>/dev/null | sed -n 's/^Nodes searched: //p'
}
compare() { # engine variant suite
	local eng=$1 var=$2 suite=$3 n=0 bad=0
	if ! command -v "$eng" >/dev/null; then
		echo "skip $var-vs-$(basename "$eng") # $eng not installed"
		return
	fi
	while IFS= read -r line; do
		case $line in '#'* | '') continue ;; esac
		fen=${line%% ;*}
		want=$(uci "$eng" "$var" "$fen" 2)
		got=$(vchess-perft --variant "$var" --fen "$fen" 2)
		n=$((n + 1))
		if [ "$want" != "$got" ]; then
			bad=$((bad + 1))
			echo "    $fen: vchess $got, $(basename "$eng") $want"
		fi
	done <"$suite"
	if [ $bad -eq 0 ] && [ $n -gt 0 ]; then
		echo "ok $var-vs-$(basename "$eng"): $n positions agree at depth 2"
	else
		echo "not ok $var-vs-$(basename "$eng"): $bad of $n positions differ"
	fi
}
PATH=$PATH:/usr/games
compare stockfish chess tests/perft/chess.perft
compare fairy-stockfish chess tests/perft/chess.perft
compare fairy-stockfish crazyhouse tests/perft/crazyhouse-real.perft
compare fairy-stockfish crazyhouse tests/perft/crazyhouse.perft
