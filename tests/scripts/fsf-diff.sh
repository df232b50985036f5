#!/usr/bin/env bash
# test-limit: 600
# (92 s alone, 185 s beside the rest of make -j2 check in CI: the default 300
# left too little room on a busy machine, where it once ran out)
# vchess against Fairy-Stockfish, the engine every variant player uses, on
# the variants both know: for each, the start and positions reached by
# seeded random play in vchess (tests/unit/t_genval.c writes the games,
# vchess-convert -t fen --plies gives every position), counted by the
# engine's `go perft` at depths 1 to 3 and checked by `vchess-perft --suite`
# (one process a variant).  Every count must be the same.  Each line of the
# table below is "vchess-name engine-name"; the engine reads and writes the
# same position strings as vchess for them.
#
# Atomic is left out: Fairy-Stockfish 11.1 keeps a pawn that captures on
# the board (pawns are immune to blasts there, the capturer too), where
# lichess, python-chess and chessops blow it away with its victim; vchess
# follows lichess, and tests/scripts/chessops-diff.sh checks atomic.
# Variants whose every count at depth 3 is too many for a test (clobber10)
# are counted to depth 2.
#
# The variants of Fairy-Stockfish's own (xiangqi, janggi, ...) and those
# with hands or gating are also counted from their start at depths 1 to 3,
# each against the engine; in those with hands or gating the engine also
# replays the random game's coordinates, and every position string it
# prints must be vchess's.
#
# A third column "dropmate" marks the variants where the engine departs
# from the rules: Fairy-Stockfish 11.1 lets a pawn drop checkmate in
# minishogi and the variants it builds on it (uchifuzume forbids it), and
# in shogi too (found at depths 3 and 4 from random positions: the twin
# equals the engine there, vchess counts fewer by the mating drops), so
# their positions are counted with a twin, the variant with that drop
# allowed (base: VARIANT, the pawn's drop-no-mate off), which must equal the
# engine exactly; and then the positions counted (FULL=1: every position of
# the random games), and for minishogi one built to have such a drop, must
# differ from the twin's by exactly the pawn drops that mate, each refused
# by vchess-validate with the rule's words.
#
# Position strings too (fsf-fen-*): the engine reads each position that
# vchess wrote and writes it back with its `d` command, and its start
# position's string; each must be the string vchess writes.
#
# Piece letters too (fsf-letters-*): each letter vchess reads in a variant,
# put on its start, the engine keeps (see the section at the end).
#
#   FULL=1 looks at many more positions (ten games, every fifth ply), one ply deeper;
#   FSF_ONLY=REGEX keeps the table's lines that match.
# Skipped with the reason when fairy-stockfish is not installed.
set -u
# Compared with Fairy-Stockfish in make check only: under the sanitizers
# (make san sets VCHESS_SAN=1) it skips, the C code it drives running there
# in t_genval, t_diff, t_bb and the goldens (random games of every variant).
if [ "${VCHESS_SAN:-0}" = 1 ]; then
	echo "skip fsf-diff: compared with Fairy-Stockfish in make check; the same C code runs under the sanitizers in the unit tests"
	exit 0
fi
PATH=$PATH:/usr/games
B=${VCHESS_BUILD:-build}
games=1 every=13 depth=3
if [ "${FULL:-0}" = 1 ]; then
	games=10 every=5 depth=4
fi
table="
chess chess
crazyhouse crazyhouse
chessgi chessgi
capahouse capahouse
pocketknight pocketknight
seirawan seirawan
shouse shouse
chess960 fischerandom
antichess antichess
giveaway giveaway
king-of-the-hill kingofthehill
three-check 3check
racing-kings racingkings
horde horde
normal normal
nocastle nocastle
amazon amazon
almost almost
capablanca capablanca
gothic gothic
embassy embassy
janus janus
chancellor chancellor
modern modern
centaur centaur
knightmate knightmate
losalamos losalamos
gardner gardner
fairy fairy
hoppelpoppel hoppelpoppel
newzealand newzealand
five-check 5check
makruk makruk
makpong makpong
cambodian cambodian
karouk karouk
ai-wok ai-wok
asean asean
extinction extinction
kinglet kinglet
threekings threekings
shatranj shatranj
courier courier
losers losers
codrus codrus
suicide suicide
clobber clobber
clobber10 clobber10
breakthrough breakthrough
jesonmor jesonmor
chigorin chigorin
caparandom caparandom
shatar shatar
grand grand
shako shako
xiangqi xiangqi
minixiangqi minixiangqi
manchu manchu
supply supply
janggi janggi
janggicasual janggicasual
janggimodern janggimodern
janggitraditional janggitraditional
minishogi minishogi dropmate
shogi shogi dropmate
euroshogi euroshogi dropmate
gorogoro gorogoro dropmate
judkins judkins dropmate
loop loop
kyotoshogi kyotoshogi
micro micro
dobutsu dobutsu
placement placement
sittuyin sittuyin
"
# the variants whose position strings are not the engine's (fsf-fen-*):
# chess960 writes castling rights as lichess does (KQkq, X-FEN), where the
# engine's fischerandom writes Shredder-FEN (HAha)
fen_skip="chess960"
# the variants whose start is also counted, depths 1 to 3
starts="xiangqi minixiangqi manchu janggi janggicasual janggimodern janggitraditional cambodian karouk shako minishogi shogi euroshogi gorogoro judkins
capahouse pocketknight seirawan shouse chessgi supply kyotoshogi micro dobutsu
placement sittuyin"
starts=$(echo $starts)
# the variants whose random game is also played in the engine from its
# coordinates, every position string the engine prints equal to vchess's
# (hands, promoted pieces, gating rights)
fens="crazyhouse chessgi capahouse pocketknight seirawan shouse kyotoshogi micro dobutsu
placement sittuyin"
table=$(printf '%s\n' "$table" | grep -E -- "${FSF_ONLY:-.}")
if ! command -v fairy-stockfish >/dev/null 2>&1; then
	printf '%s\n' "$table" | while read -r v e _; do
		[ -n "$v" ] && echo "skip fsf-$v # fairy-stockfish is not installed"
	done
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# same_fens VCHESS-VARIANT ENGINE-VARIANT PGN: the first game of PGN played
# in the engine from its coordinates, a position string after every ply,
# compared with vchess's own; prints a line of TAP
same_fens() {
	vchess-convert -t fen --plies "$3" 2>/dev/null | awk 'BEGIN { RS = "" } NR == 1' >"$tmp/$1.vfen"
	vchess-convert --no-tags --no-comments --moves=uci "$3" 2>/dev/null |
		awk 'BEGIN { RS = "" } NR == 1 { gsub(/[0-9]+\./, ""); gsub(/\*|1-0|0-1|1\/2-1\/2/, ""); print }' |
		tr -s ' \n' '\n\n' | grep . >"$tmp/$1.uci"
	{
		printf 'uci\nsetoption name UCI_Variant value %s\nposition startpos\nd\n' "$2"
		moves=""
		while read -r m; do
			moves="$moves $m"
			printf 'position startpos moves%s\nd\n' "$moves"
		done <"$tmp/$1.uci"
		printf 'quit\n'
	} | fairy-stockfish 2>/dev/null | sed -n 's/^Fen: //p' >"$tmp/$1.efen"
	n=$(grep -c . "$tmp/$1.efen")
	if [ "$n" -gt 1 ] && head -n "$n" "$tmp/$1.vfen" | cmp -s - "$tmp/$1.efen"; then
		echo "ok fsf-$1-fen: $n position strings of a game equal fairy-stockfish's ($2)"
	else
		echo "not ok fsf-$1-fen: position strings differ from fairy-stockfish's ($2)"
		head -n "$n" "$tmp/$1.vfen" | diff - "$tmp/$1.efen" | head -4 | sed 's/^/    /'
	fi
}

# engine_run FILE-OF-FENS ENGINE-VARIANT DEPTH: one engine process that
# writes its start position's string, then for each position of the file
# its string as it reads it and its counts at depths 1 to DEPTH; raw output
# in FILE.eng, for engine_suite and engine_fens
engine_run() {
	{
		printf 'uci\nsetoption name UCI_Variant value %s\nposition startpos\nd\n' "$2"
		while IFS= read -r fen; do
			printf 'position fen %s\nd\n' "$fen"
			d=1
			while [ $d -le "$3" ]; do
				printf 'go perft %s\n' $d
				d=$((d + 1))
			done
		done <"$1"
		printf 'quit\n'
	} | fairy-stockfish >"$1.eng" 2>/dev/null
}

# engine_suite FILE-OF-FENS DEPTH: a perft suite from engine_run's output,
# each position with the engine's counts at depths 1 to DEPTH
engine_suite() {
	sed -n 's/^Nodes searched: //p' "$1.eng" |
		awk -v n="$2" 'NR == FNR { fen[FNR] = $0; next }
			{ i = int((FNR - 1) / n) + 1; line[i] = line[i] " ;D" ((FNR - 1) % n + 1) " " $1 }
			END { for (i = 1; i in fen; i++) print fen[i] line[i] }' "$1" -
}

# engine_fens FILE-OF-FENS: the engine's own position string for its start,
# then for each position of the file as it reads it (engine_run's output)
engine_fens() {
	sed -n 's/^Fen: //p' "$1.eng"
}

# fen_check VARIANT ENGINE-VARIANT: vchess writes the position strings the
# engine writes, for the start and every position of the random games
fen_check() {
	local n bad
	engine_fens "$tmp/$1.fens" >"$tmp/$1.efens"
	{ head -n 1 "$tmp/$1.fens"; cat "$tmp/$1.fens"; } >"$tmp/$1.vfens"
	n=$(wc -l <"$tmp/$1.vfens")
	bad=$(paste -d '|' "$tmp/$1.vfens" "$tmp/$1.efens" | awk -F '|' '$1 != $2' | head -n 3)
	if [ "$(wc -l <"$tmp/$1.efens")" -ne "$n" ]; then
		echo "not ok fsf-fen-$1: fairy-stockfish ($2) did not write every position"
	elif [ -z "$bad" ]; then
		echo "ok fsf-fen-$1: the start and $((n - 1)) positions written as fairy-stockfish ($2) writes them"
	else
		echo "not ok fsf-fen-$1: position strings differ from fairy-stockfish ($2) (vchess | engine)"
		printf '%s\n' "$bad" | sed 's/^/    /'
	fi
}

printf '%s\n' "$table" | while read -r v e twin; do
	[ -n "$v" ] || continue
	as=$v
	if [ "${twin:-}" = dropmate ]; then
		as=$tmp/$v-dropmate.yaml
		printf 'name: %s-dropmate\nbase: %s\npieces:\n  - {name: pawn, drop-no-mate: false}\n' \
			"$v" "$v" >"$as"
	fi
	case " $starts " in
	*" $v "*)
		printf 'startpos\n' >"$tmp/$v.start"
		bad=""
		# one engine process for the three depths (it takes a second to start)
		{
			printf 'uci\nsetoption name UCI_Variant value %s\nposition startpos\n' "$e"
			printf 'go perft %s\n' 1 2 3
			printf 'quit\n'
		} | fairy-stockfish 2>/dev/null | sed -n 's/^Nodes searched: //p' >"$tmp/$v.want"
		for d in 1 2 3; do
			want=$(sed -n "${d}p" "$tmp/$v.want")
			got=$(vchess-perft --variant "$as" "$d" 2>&1)
			[ "$got" = "$want" ] || bad="$bad depth $d: vchess $got, fairy-stockfish $want;"
		done
		if [ -z "$bad" ]; then
			echo "ok fsf-$v-start: depths 1 to 3 from the start agree with fairy-stockfish ($e)"
		else
			echo "not ok fsf-$v-start:$bad"
		fi
		;;
	esac
	d=$depth
	case $v in clobber10) d=$((depth - 1)) ;; esac
	"$B/tests/t_genval" --variant "$v" --games "$games" --plies 160 --seed 7 --write san \
		>"$tmp/$v.pgn" 2>/dev/null
	case " $fens " in
	*" $v "*) same_fens "$v" "$e" "$tmp/$v.pgn" ;;
	esac
	vchess-convert -t fen --plies "$tmp/$v.pgn" 2>/dev/null | awk NF >"$tmp/$v.all"
	# dobutsu's random games are short (a lion soon reaches the far rank):
	# every position of them
	k=$every
	case $v in dobutsu) k=1 ;; esac
	awk -v k="$k" 'k == 1 || NR % k == 1 { print; next } { last = $0 } END { if (last != "") print last }' "$tmp/$v.all" >"$tmp/$v.fens"
	n=$(grep -c . "$tmp/$v.fens")
	if [ "$n" -lt 2 ]; then
		echo "not ok fsf-$v: no positions came out of the random games"
		continue
	fi
	engine_run "$tmp/$v.fens" "$e" "$d"
	case " $fen_skip " in *" $v "*) ;; *) fen_check "$v" "$e" ;; esac
	engine_suite "$tmp/$v.fens" "$d" >"$tmp/$v.perft"
	if [ "$(grep -c ';D' "$tmp/$v.perft")" -ne "$n" ]; then
		echo "not ok fsf-$v: fairy-stockfish ($e) did not count every position"
		continue
	fi
	if vchess-perft --variant "$as" --suite "$tmp/$v.perft" >"$tmp/$v.out" 2>&1; then
		echo "ok fsf-$v: $n positions agree with fairy-stockfish ($e) at depths 1 to $d"
	else
		echo "not ok fsf-$v: positions differ from fairy-stockfish ($e) at depths 1 to $d"
		grep -v '^ok ' "$tmp/$v.out" | head -8 | sed 's/^/    /'
	fi
done

# each variant against its twin that allows pawn-drop mates: the moves
# only the twin has, in every position of the random games, are pawn drops
# that mate, which vchess-validate refuses by the rule
dropmate() {
	local v=$1 fen=$2 twin=$tmp/$1-dropmate.yaml m
	vchess-perft --variant "$v" --fen "$fen" --divide 1 | sed -n 's/: 1$//p' | sort >"$tmp/dm.a"
	vchess-perft --variant "$twin" --fen "$fen" --divide 1 | sed -n 's/: 1$//p' | sort >"$tmp/dm.b"
	if [ -n "$(comm -23 "$tmp/dm.a" "$tmp/dm.b")" ]; then
		echo "a move of $v's that the twin lacks in $fen"
		return
	fi
	for m in $(comm -13 "$tmp/dm.a" "$tmp/dm.b"); do
		printf '[Variant "%s"]\n[SetUp "1"]\n[FEN "%s"]\n\n1. %s *\n' "$v" "$fen" "$m" >"$tmp/dm.pgn"
		case $m in
		P@*) ;;
		*) echo "$m is no pawn drop, in $fen" && continue ;;
		esac
		if ! vchess-validate --force-variant "$twin" "$tmp/dm.pgn" >/dev/null 2>&1; then
			echo "$m does not validate with drop mates allowed, in $fen"
		elif ! vchess-validate "$tmp/dm.pgn" 2>&1 |
			grep -q "would checkmate by a drop of a pawn, which the rules forbid"; then
			echo "$m is not refused as a pawn-drop mate, in $fen"
		else
			echo "ok-drop"
		fi
	done
}
printf '%s\n' "$table" | while read -r v e twin; do
	[ "${twin:-}" = dropmate ] && [ -f "$tmp/$v.all" ] || continue
	built=""
	# minishogi: P@e4 mates, the silver keeping d5, the gold d4 and e4
	[ "$v" = minishogi ] && built="4k/2S2/3G1/5/K4[P] w - - 0 1"
	# the sampled positions (FULL=1: every position of the games)
	pos=$tmp/$v.fens
	[ "${FULL:-0}" = 1 ] && pos=$tmp/$v.all
	{ [ -n "$built" ] && printf '%s\n' "$built"; cat "$pos"; } >"$tmp/dm.fens"
	: >"$tmp/dm.log"
	while IFS= read -r fen; do dropmate "$v" "$fen" >>"$tmp/dm.log"; done <"$tmp/dm.fens"
	n=$(grep -c . "$tmp/dm.fens") drops=$(grep -c '^ok-drop$' "$tmp/dm.log")
	first=1
	[ -n "$built" ] && first=$(dropmate "$v" "$built" | grep -c '^ok-drop$')
	if grep -qv '^ok-drop$' "$tmp/dm.log" || [ "$first" -ne 1 ]; then
		echo "not ok fsf-$v-dropmate: $v and the engine's counts differ otherwise than by pawn-drop mates"
		grep -v '^ok-drop$' "$tmp/dm.log" | head -n 4 | sed 's/^/    /'
	else
		echo "ok fsf-$v-dropmate: in $n positions $v has exactly the engine's moves less $drops pawn-drop mates, each refused by the rule"
	fi
done

# The counts of makruk's family (end: counting): random games from endings
# where a count starts (a bare king against each row of the pieces' honour,
# the board's honour once no pawn is left, a capture that bares a king while
# a count runs, pawns still on the board), each played in the engine from
# its coordinates; every position string, with the count's limit and plies
# where it runs, must be the engine's.  Setups are written with makruk's
# letters and given each variant's own (ASEAN's B and Q, ai-wok's A,
# sittuyin's F and its empty hands, karouk's checks still to give).
count_setups="4k3/8/8/8/8/8/8/RR2K3 w - - 0 1
4k3/8/8/8/8/8/3N4/3SK1S1 w - - 0 1
4k3/3n4/8/8/8/8/3S4/4KN2 w - - 0 1
4k3/2s5/8/2p5/8/3P4/8/R3K3 b - - 0 1
3k4/8/8/8/8/8/N7/NS2K3 b - - 0 1
4k3/8/8/8/8/8/8/1SM1K3 w - - 0 1
4k3/8/8/8/8/8/8/1NM1K3 w - - 0 1
4k3/8/8/8/8/8/8/2R1K3 w - - 0 1
2r1k3/8/8/8/8/8/8/1NM1K3 w - - 0 1"
# counting_fens VARIANT ENGINE-VARIANT: two random games from each setup of
# $tmp/cnt.setups, every position string of vchess's and of the engine (one
# engine process for all) in $tmp/cnt.v and $tmp/cnt.efen
counting_fens() {
	local v=$1 e=$2 fen seed=1 m moves
	: >"$tmp/cnt.v"
	{
		printf 'uci\nsetoption name UCI_Variant value %s\n' "$e"
		while IFS= read -r fen; do
			"$B/tests/t_genval" --variant "$v" --games 2 --plies 70 --seed "$seed" --write san \
				--fen "$fen" >"$tmp/cnt.pgn" 2>/dev/null
			seed=$((seed + 1))
			vchess-convert -t fen --plies "$tmp/cnt.pgn" 2>/dev/null | grep . >>"$tmp/cnt.v"
			printf 'position fen %s\nd\n' "$fen"
			moves=""
			while read -r m; do
				if [ "$m" = -- ]; then
					moves=""
					printf 'position fen %s\nd\n' "$fen"
					continue
				fi
				moves="$moves $m"
				printf 'position fen %s moves%s\nd\n' "$fen" "$moves"
			done < <(vchess-convert --no-tags --no-comments --moves=uci "$tmp/cnt.pgn" 2>/dev/null |
				awk 'BEGIN { RS = "" } { gsub(/[0-9]+\.+/, ""); gsub(/\*|1-0|0-1|1\/2-1\/2/, ""); print; print "--" }' |
				tr -s ' \n' '\n\n' | grep . | sed '$d')
		done <"$tmp/cnt.setups"
		printf 'quit\n'
	} | fairy-stockfish 2>/dev/null | sed -n 's/^Fen: //p' >"$tmp/cnt.efen"
}
for v in makruk makpong cambodian ai-wok karouk asean sittuyin; do
	printf '%s\n' "$table" | grep -q "^$v " || continue
	printf '%s\n' "$count_setups" | while IFS= read -r fen; do
		case $v in
		asean) fen=$(printf '%s' "$fen" | tr 'SsMm' 'BbQq') ;;
		ai-wok) fen=$(printf '%s' "$fen" | tr 'Mm' 'Aa') ;;
		sittuyin) fen=$(printf '%s' "$fen" | tr 'Mm' 'Ff' | sed 's/ /[] /') ;;
		karouk) fen=$(printf '%s' "$fen" | sed 's/ - - / - - 1+1 /') ;;
		esac
		printf '%s\n' "$fen"
	done >"$tmp/cnt.setups"
	counting_fens "$v" "$v"
	n=$(grep -c . "$tmp/cnt.v")
	counted=$(grep -c -E ' [0-9]+ ([0-9]+\+[0-9]+ )?[0-9]+ [0-9]+$' "$tmp/cnt.v")
	if [ "$n" -gt 20 ] && [ "$counted" -gt 0 ] && cmp -s "$tmp/cnt.v" "$tmp/cnt.efen"; then
		echo "ok fsf-$v-counting: random games from $(grep -c . "$tmp/cnt.setups") endings, all $n position strings the engine's, $counted of them with a count running"
	else
		echo "not ok fsf-$v-counting: position strings differ from fairy-stockfish's ($counted of $n with a count; vchess, then the engine)"
		diff "$tmp/cnt.v" "$tmp/cnt.efen" | head -n 6 | sed 's/^/    /'
	fi
done

# The piece letters (fsf-letters-*): in every variant of the table, each
# upper-case letter is put on the start (on the first empty square of the
# middle rank, or of the nearest rank that has one; on a full board in place
# of the middle rank's first piece), and vchess-perft --suite reads the 26
# strings.  Every letter it reads, the engine must keep: the position as
# vchess writes it (an alias as its piece's letter: xiangqi's E is a B), the
# engine's `d` writes back with the same board (the board only: a second king
# may cost the engine a castling right).  The other way, a letter the engine
# knows and vchess refuses, cannot be asked of it: Fairy-Stockfish 11.1 may
# crash on a letter it does not know.  One engine process for them all, and
# a new one after a crash, from the position after the one that crashed it.
: >"$tmp/letters.notes"
printf '%s\n' "$table" | while read -r v e _; do
	[ -n "$v" ] && [ -s "$tmp/$v.fens" ] || continue
	case " $fen_skip " in *" $v "*) continue ;; esac
	start=$(engine_fens "$tmp/$v.fens" | head -n 1)
	for L in {A..Z}; do
		printf '%s\n' "$start" | awk -v L="$L" '{
			board = $1; hand = ""
			if (match(board, /\[.*\]$/)) { hand = substr(board, RSTART); board = substr(board, 1, RSTART - 1) }
			n = split(board, r, "/"); mid = int(n / 2) + 1; done = 0
			for (k = 0; k < n && !done; k++) {
				i = k % 2 ? mid - (k + 1) / 2 : mid + k / 2
				if (i < 1 || i > n || !match(r[i], /[0-9]+/)) continue
				e = substr(r[i], RSTART, RLENGTH) - 1
				r[i] = substr(r[i], 1, RSTART - 1) L (e ? e : "") substr(r[i], RSTART + RLENGTH)
				done = 1
			}
			if (!done) r[mid] = L substr(r[mid], 2)
			s = r[1]; for (i = 2; i <= n; i++) s = s "/" r[i]
			$1 = s hand; print }'
	done >"$tmp/$v.let"
	unknown=$(sed 's/$/ ;D1 0/' "$tmp/$v.let" | vchess-perft --variant "$v" --suite - 2>&1 |
		sed -n "s/.*does not read: unknown piece '\([A-Z]\)'.*/\1/p" | tr -d '\n')
	i=0
	for L in {A..Z}; do
		i=$((i + 1))
		case $unknown in *"$L"*) ;; *) sed -n "${i}p" "$tmp/$v.let" ;; esac
	done >"$tmp/$v.known"
	awk -v v="$v" '{ printf "[Variant \"%s\"]\n[SetUp \"1\"]\n[FEN \"%s\"]\n\n*\n\n", v, $0 }' \
		"$tmp/$v.known" | vchess-convert -t fen 2>/dev/null | grep . >"$tmp/$v.vlet"
	if [ "$(wc -l <"$tmp/$v.vlet")" -ne "$(wc -l <"$tmp/$v.known")" ]; then
		echo "not ok fsf-letters-$v: vchess does not write every position it reads" >>"$tmp/letters.notes"
		continue
	fi
	awk -v v="$v" -v e="$e" '{ print v, e, $0 }' "$tmp/$v.vlet"
done >"$tmp/letters.items"
# letters_engine FIRST: the engine's board for each item from line FIRST on,
# appended to $tmp/letters.efen, until the last or a crash
letters_engine() {
	tail -n "+$1" "$tmp/letters.items" |
		awk '{ if ($2 != last) print "setoption name UCI_Variant value " $2; last = $2
			$1 = $2 = ""; sub(/^ +/, ""); print "position fen " $0; print "d" }' |
		{ printf 'uci\n'; cat; printf 'quit\n'; } |
		fairy-stockfish 2>/dev/null | sed -n 's/^Fen: \([^ ]*\).*/\1/p' >>"$tmp/letters.efen"
}
: >"$tmp/letters.efen"
total=$(grep -c . "$tmp/letters.items")
at=1
while [ "$at" -le "$total" ]; do
	letters_engine "$at"
	got=$(wc -l <"$tmp/letters.efen")
	[ "$got" -lt "$total" ] || break
	echo "(crashed)" >>"$tmp/letters.efen" # on item got + 1
	at=$((got + 2))
done
cat "$tmp/letters.notes"
paste -d ' ' "$tmp/letters.items" "$tmp/letters.efen" | awk '
	{ v = $1; e[v] = $2; want = $3; got = $NF
	  if (!(v in seen)) { seen[v] = 1; order[++nv] = v }
	  count[v]++; if (want != got) bad[v] = bad[v] sprintf(" vchess %s, the engine %s;", want, got) }
	END { for (i = 1; i <= nv; i++) { v = order[i]
		if (bad[v] == "") printf "ok fsf-letters-%s: fairy-stockfish (%s) keeps every piece of the %d positions with a letter vchess reads\n", v, e[v], count[v]
		else printf "not ok fsf-letters-%s: pieces vchess reads that fairy-stockfish (%s) does not keep:%s\n", v, e[v], bad[v] } }'
