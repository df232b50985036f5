#!/usr/bin/env bash
# vchess against Fairy-Stockfish, the engine every variant player uses, on
# the variants both know: for each, the start and positions reached by
# seeded random play in vchess (tests/unit/t_genval.c writes the games,
# vchess-convert -t fen --plies gives every position), counted by
# `vchess-perft --fen` and by the engine's `go perft`.  Every count must be
# the same.  Each line of the table below is "vchess-name engine-name";
# the engine reads and writes the same position strings as vchess for them.
#
# Atomic is left out: Fairy-Stockfish 11.1 keeps a pawn that captures on
# the board (pawns are immune to blasts there, the capturer too), where
# lichess, python-chess and chessops blow it away with its victim; vchess
# follows lichess, and tests/scripts/chessops-diff.sh checks atomic.
#
# The variants of Fairy-Stockfish's own (xiangqi, janggi, ...) are also
# counted from their start at depths 1 to 3, each against the engine.
#
#   FULL=1 looks at ten times as many positions, one ply deeper.
#   FSF_ONLY=REGEX looks only at the variants whose vchess name matches.
# Skipped with the reason when fairy-stockfish is not installed.
set -u
PATH=$PATH:/usr/games
B=${VCHESS_BUILD:-build}
games=2 every=17 depth=2
if [ "${FULL:-0}" = 1 ]; then
	games=10 every=5 depth=3
fi
table="
chess chess
crazyhouse crazyhouse
chess960 fischerandom
antichess antichess
giveaway giveaway
king-of-the-hill kingofthehill
three-check 3check
racing-kings racingkings
horde horde
xiangqi xiangqi
minixiangqi minixiangqi
manchu manchu
janggi janggi
janggicasual janggicasual
janggimodern janggimodern
janggitraditional janggitraditional
"
# the variants whose start is also counted, depths 1 to 3
starts="xiangqi minixiangqi manchu janggi janggicasual janggimodern janggitraditional"
if ! command -v fairy-stockfish >/dev/null 2>&1; then
	printf '%s\n' "$table" | while read -r v e; do
		[ -n "$v" ] && echo "skip fsf-$v # fairy-stockfish is not installed"
	done
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# counts FILE-OF-FENS ENGINE-VARIANT DEPTH: the engine's count for each line
engine_counts() {
	{
		printf 'uci\nsetoption name UCI_Variant value %s\n' "$2"
		while IFS= read -r fen; do
			printf 'position fen %s\ngo perft %s\n' "$fen" "$3"
		done <"$1"
		printf 'quit\n'
	} | fairy-stockfish 2>/dev/null | sed -n 's/^Nodes searched: //p'
}

printf '%s\n' "$table" | while read -r v e; do
	[ -n "$v" ] || continue
	if [ -n "${FSF_ONLY:-}" ] && ! printf '%s\n' "$v" | grep -Eq "$FSF_ONLY"; then
		continue
	fi
	case " $starts " in
	*" $v "*)
		printf 'startpos\n' >"$tmp/$v.start"
		bad=""
		for d in 1 2 3; do
			want=$({
				printf 'uci\nsetoption name UCI_Variant value %s\n' "$e"
				printf 'position startpos\ngo perft %s\nquit\n' "$d"
			} | fairy-stockfish 2>/dev/null | sed -n 's/^Nodes searched: //p')
			got=$(vchess-perft --variant "$v" "$d" 2>&1)
			[ "$got" = "$want" ] || bad="$bad depth $d: vchess $got, fairy-stockfish $want;"
		done
		if [ -z "$bad" ]; then
			echo "ok fsf-$v-start: depths 1 to 3 from the start agree with fairy-stockfish ($e)"
		else
			echo "not ok fsf-$v-start:$bad"
		fi
		;;
	esac
	"$B/tests/t_genval" --variant "$v" --games "$games" --plies 160 --seed 7 --write san \
		>"$tmp/$v.pgn" 2>/dev/null
	vchess-convert -t fen --plies "$tmp/$v.pgn" 2>/dev/null |
		awk -v k="$every" 'NF && (NR % k == 1)' >"$tmp/$v.fens"
	if [ ! -s "$tmp/$v.fens" ]; then
		echo "not ok fsf-$v: no positions came out of the random games"
		continue
	fi
	engine_counts "$tmp/$v.fens" "$e" "$depth" >"$tmp/$v.want"
	n=0 bad=0
	while IFS= read -r fen && IFS= read -r want <&3; do
		got=$(vchess-perft --variant "$v" --fen "$fen" "$depth" 2>&1)
		n=$((n + 1))
		if [ "$got" != "$want" ]; then
			bad=$((bad + 1))
			[ $bad -le 5 ] && echo "    $fen: vchess $got, fairy-stockfish $want" >>"$tmp/$v.bad"
		fi
	done <"$tmp/$v.fens" 3<"$tmp/$v.want"
	if [ $bad -eq 0 ] && [ $n -gt 0 ]; then
		echo "ok fsf-$v: $n positions agree with fairy-stockfish ($e) at depth $depth"
	else
		echo "not ok fsf-$v: $bad of $n positions differ from fairy-stockfish ($e) at depth $depth"
		cat "$tmp/$v.bad" 2>/dev/null
	fi
done
