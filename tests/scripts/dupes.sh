#!/usr/bin/env bash
# dupes.sh - vchess-convert --no-duplicates / --duplicates=FILE finds every repeat and no other
# game, in every variant, across files, with one thread or two.
#
#  1. Planted repeats in a mixed archive built from the tests' own games: random games of every
#     built-in variant (tests/unit/t_genval --write san) and the games of corpora/*/games.pgn,
#     each with an Event of its own, in base.pgn; then twin1.pgn holds every third game again
#     ("Repeat of E": another Event, an Annotator tag, a comment the original lacks), twin2.pgn
#     every fourth ("Again E"), and near.pgn the games that only look like repeats: chess games
#     relabelled as crazyhouse and king-of-the-hill games relabelled as chess (the same moves,
#     another variant), every fifth game less its last ply.  Wanted: the repeats -v names are
#     exactly the twins, each naming its original (by number), the duplicates file holds them
#     in input order, -j 2 writes byte for byte what -j 1 writes; --duplicates-by=final finds
#     every twin too and none of the relabelled games.
#  2. The real archives (corpora/MANIFEST, in $CORPORA): the pgnmentor and lichess archives,
#     each alone, each joined with itself and with the other (given as pgnmentor, lichess,
#     pgnmentor, lichess; FULL=1: each alone too), against pgn-extract -D (-d FILE): the same
#     number of repeats, and the same games, in the same order, compared by their Seven Tag
#     Roster and UTCTime (Round "?" where a game has none: pgn-extract adds it).  Measured when
#     written: pgnmentor alone 1028 repeats, lichess alone 143, the four files 67,171 (the
#     second copies, 19,820 + 46,177; the 1028 and 143 within each first copy; and 3 short
#     lichess games that repeat pgnmentor games), and no difference at all: these
#     archives hold no game that pgn-extract cannot read, no variant and no FEN start, which is
#     where the two tools would differ (see REPEATED GAMES in vchess-convert(1)).
set -u
export LC_ALL=C
PATH=$PATH:/usr/games
root=$(pwd)
B=${VCHESS_BUILD:-build}
T=${TMPDIR:-/tmp}/dupes
rm -rf "$T"
mkdir -p "$T" || exit 2
C=${CORPORA:-corpora/real}
case $C in /*) ;; *) C=$root/$C ;; esac

if ! command -v vchess-convert >/dev/null 2>&1; then
	echo "not ok dupes: vchess-convert not in PATH"
	exit 1
fi

# ---- 1. planted repeats ---------------------------------------------------------------------

# renames the Event of each game: PREFIX K
name_games() {
	awk -v p="$1" '/^\[Event /{ k++; print "[Event \"" p " " k "\"]"; next } { print }'
}

# every N-th game (the K-th, N+K-th, ...) again, as a twin: Event "LABEL E", an Annotator tag,
# a comment before its first move
twins() {
	awk -v n="$1" -v off="$2" -v label="$3" '
	function flush() { if (buf != "" && k % n == off) print buf; buf = "" }
	/^\[Event / { flush(); k++; ev = substr($0, 9, length($0) - 10)
		buf = "[Event \"" label " " ev "\"]\n[Annotator \"planted\"]"; intags = 1; next }
	intags && /^$/ { buf = buf "\n\n{a comment the first copy lacks}"; intags = 0; next }
	{ buf = buf "\n" $0 }
	END { flush() }'
}

# every N-th game less its last ply (the move before the result, and its number if alone)
shorter() {
	awk -v n="$1" '
	function flush(   m, i, t, out, drop) {
		if (buf == "" || k % n != 0) { buf = ""; return }
		m = split(moves, t, " ")
		drop = m - 1                       # t[m] is the result
		while (drop > 0 && t[drop] ~ /^[0-9]+\.+$/) drop--
		if (drop > 0 && t[drop - 1] ~ /^[0-9]+\.+$/ && t[drop - 1] !~ /\.\.\./) drop--
		out = ""
		for (i = 1; i <= m; i++) if (i < drop || i >= m) out = out (out == "" ? "" : " ") t[i]
		if (drop <= 0) out = moves
		print buf "\n" out "\n"; buf = ""
	}
	/^\[Event / { flush(); k++; ev = substr($0, 9, length($0) - 10)
		buf = "[Event \"Shorter " ev "\"]"; moves = ""; intags = 1; next }
	intags && /^\[/ { buf = buf "\n" $0; next }
	intags && /^$/ { buf = buf "\n"; intags = 0; next }
	!intags { moves = moves " " $0 }
	END { flush() }'
}

# the games of one variant relabelled as another
relabel() {
	awk -v from="$1" -v to="$2" '
	function flush() { if (buf != "" && hit) print buf; buf = ""; hit = 0 }
	/^\[Event / { flush(); ev = substr($0, 9, length($0) - 10)
		buf = "[Event \"Relabelled " ev "\"]"; next }
	/^\[Variant / { if ($0 == "[Variant \"" from "\"]") { hit = 1; $0 = "[Variant \"" to "\"]" } }
	{ buf = buf "\n" $0 }
	END { flush() }'
}

planted() {
	local gv=$B/tests/t_genval
	if [ ! -x "$gv" ]; then
		echo "skip dupes-planted # $gv not built (make tests)"
		return
	fi
	local d=$T/planted v f seed=23
	mkdir -p "$d"
	: >"$d/base.pgn"
	# a seed a variant: with one seed, variants whose rules agree play the same games, which
	# are repeats of each other once relabelled
	for v in $(vchess-variant list | awk '{ print $1 }'); do
		seed=$((seed + 1))
		"$gv" --variant "$v" --games 5 --plies 50 --seed $seed --write san 2>/dev/null |
			name_games "$v" >>"$d/base.pgn"
	done
	for f in corpora/*/games.pgn; do
		vchess-convert -j1 "$f" 2>/dev/null | name_games "corpus-$(basename "$(dirname "$f")")" \
			>>"$d/base.pgn"
	done
	twins 3 1 "Repeat of" <"$d/base.pgn" >"$d/twin1.pgn"
	twins 4 2 "Again" <"$d/base.pgn" >"$d/twin2.pgn"
	{
		relabel chess crazyhouse <"$d/base.pgn"
		relabel king-of-the-hill chess <"$d/base.pgn"
		shorter 5 <"$d/base.pgn"
	} >"$d/near.pgn"
	local files=("$d/base.pgn" "$d/twin1.pgn" "$d/near.pgn" "$d/twin2.pgn")
	# every game's Event, by game number
	cat "${files[@]}" | sed -n 's/^\[Event "\(.*\)"\]$/\1/p' >"$d/events"
	local ngames nbase
	ngames=$(wc -l <"$d/events")
	nbase=$(grep -c '^\[Event ' "$d/base.pgn")
	local j
	for j in 1 2; do # in directories of their own: the files are named alike
		mkdir -p "$d/j$j"
		(cd "$d/j$j" && vchess-convert -j $j -v -d dupes.pgn -o out.pgn "${files[@]}" 2>err
		echo $? >status)
		for f in dupes.pgn out.pgn err status; do mv "$d/j$j/$f" "$d/${f%.pgn}-j$j${f#"${f%.pgn}"}"; done
	done
	local games_read
	games_read=$(vchess-convert -j1 --select valid -t fen "${files[@]}" 2>/dev/null | wc -l)
	# the twins by number, and what the notes say
	awk '/^(Repeat of|Again) /{ print NR }' "$d/events" >"$d/want"
	sed -n 's/.*note: game \([0-9]*\) repeats game \([0-9]*\) .*/\1 \2/p' "$d/err-j1" >"$d/pairs"
	cut -d' ' -f1 "$d/pairs" >"$d/got"
	local bad
	bad=$(awk 'NR == FNR { ev[FNR] = $0; next }
		{ e = ev[$1]; sub(/^(Repeat of|Again) /, "", e); if (e != ev[$2]) print "game " $1 " (" ev[$1] ") said to repeat game " $2 " (" ev[$2] ")" }' \
		"$d/events" "$d/pairs")
	local nwant ngot
	nwant=$(wc -l <"$d/want")
	ngot=$(wc -l <"$d/got")
	if [ "$nbase" -lt 100 ] || [ "$nwant" -lt 50 ] || [ "$games_read" -lt $((nbase + nwant)) ]; then
		echo "not ok dupes-planted: the archive is too small or broken ($nbase games, $nwant twins, $games_read valid of $ngames)"
	elif cmp -s "$d/want" "$d/got" && [ -z "$bad" ]; then
		echo "ok dupes-planted: $ngot repeats of $ngames games ($nbase originals in $(vchess-variant list | wc -l) variants and the corpora), each naming its original; no near miss taken"
	else
		echo "not ok dupes-planted: want $nwant repeats, got $ngot"
		diff "$d/want" "$d/got" | head -5 | sed 's/^/    /'
		printf '%s\n' "$bad" | head -5 | sed 's/^/    /'
	fi
	local dfile
	dfile=$(sed -n 's/^\[Event "\(.*\)"\]$/\1/p' "$d/dupes-j1.pgn" | grep -vc '^Repeat of \|^Again ')
	if [ "$(grep -c '^\[Event ' "$d/dupes-j1.pgn")" = "$nwant" ] && [ "$dfile" = 0 ]; then
		echo "ok dupes-planted-file: the duplicates file holds the $nwant twins and nothing else"
	else
		echo "not ok dupes-planted-file: $(grep -c '^\[Event ' "$d/dupes-j1.pgn") games, $dfile not twins"
	fi
	if cmp -s "$d/out-j1.pgn" "$d/out-j2.pgn" && cmp -s "$d/dupes-j1.pgn" "$d/dupes-j2.pgn" &&
		cmp -s "$d/err-j1" "$d/err-j2" && cmp -s "$d/status-j1" "$d/status-j2"; then
		echo "ok dupes-planted-j2: -j 2 writes what -j 1 writes (output, duplicates file, standard error, status)"
	else
		echo "not ok dupes-planted-j2: -j 2 differs from -j 1"
		diff "$d/err-j1" "$d/err-j2" | head -5 | sed 's/^/    /'
	fi
	# by the final position: every twin is one too; no relabelled game is; -j 2 as -j 1
	(cd "$d" && vchess-convert -j 1 -v -D --duplicates-by=final -o /dev/null "${files[@]}" 2>err-final1)
	(cd "$d" && vchess-convert -j 2 -v -D --duplicates-by=final -o /dev/null "${files[@]}" 2>err-final)
	sed -n 's/.*note: game \([0-9]*\) repeats game .*/\1/p' "$d/err-final" >"$d/got-final"
	local missing relabelled
	missing=$(comm -23 <(sort "$d/want") <(sort "$d/got-final") | wc -l)
	relabelled=$(awk 'NR == FNR { ev[FNR] = $0; next } ev[$1] ~ /^Relabelled /' "$d/events" "$d/got-final" | wc -l)
	if ! cmp -s "$d/err-final1" "$d/err-final"; then
		echo "not ok dupes-planted-final: -j 2 differs from -j 1"
		diff "$d/err-final1" "$d/err-final" | head -5 | sed 's/^/    /'
	elif [ "$missing" = 0 ] && [ "$relabelled" = 0 ]; then
		echo "ok dupes-planted-final: by the final position, every twin found ($(wc -l <"$d/got-final") repeats), no relabelled game, -j 2 as -j 1"
	else
		echo "not ok dupes-planted-final: $missing twins missed, $relabelled relabelled games taken"
	fi
}

# ---- 2. the real archives against pgn-extract ----------------------------------------------

# each game's Seven Tag Roster and UTCTime, one line a game, in order
ids() {
	awk '/^\[/ { n = $1; if (n == "[Event" || n == "[Site" || n == "[Date" || n == "[Round" ||
		n == "[White" || n == "[Black" || n == "[Result" || n == "[UTCTime") t[n] = $0 }
	/^$/ { if (length(t)) { if (!("[Round" in t)) t["[Round"] = "[Round \"?\"]"
		print t["[Event"] t["[Site"] t["[Date"] t["[Round"] t["[White"] t["[Black"] t["[Result"] t["[UTCTime"]
		delete t } }
	END { if (length(t)) print "unterminated" }' "$1"
}

against() { # NAME FILE...
	local name=$1
	shift
	local d=$T/$name
	mkdir -p "$d"
	vchess-convert -j 2 -d "$d/v.pgn" -o /dev/null "$@" 2>"$d/v.err"
	pgn-extract -s -d"$d/p.pgn" -o /dev/null "$@" 2>"$d/p.err"
	local nv np
	nv=$(grep -c '^\[Event ' "$d/v.pgn")
	np=$(grep -c '^\[Event ' "$d/p.pgn")
	ids "$d/v.pgn" >"$d/v.ids"
	ids "$d/p.pgn" >"$d/p.ids"
	if [ "$nv" = "$np" ] && cmp -s "$d/v.ids" "$d/p.ids"; then
		echo "ok dupes-$name: $nv repeats, the games pgn-extract -D finds, in the same order"
	else
		echo "not ok dupes-$name: vchess-convert $nv repeats, pgn-extract $np"
		diff "$d/v.ids" "$d/p.ids" | head -6 | sed 's/^/    /'
	fi
}

real() {
	local li=$C/standard/lichess-magnus-2018-2022.pgn.gz pm=$C/standard/pgnmentor-10-players.pgn.gz
	if ! command -v pgn-extract >/dev/null 2>&1; then
		echo "skip dupes-pgn-extract # pgn-extract not installed"
		return
	fi
	local f ok=1
	for f in "$li" "$pm"; do
		if [ ! -f "$f" ]; then
			echo "skip dupes-pgn-extract # $f absent"
			ok=0
		fi
	done
	[ $ok = 1 ] || return
	# pgn-extract reads no gzip
	gzip -dc "$li" >"$T/lichess.pgn" && gzip -dc "$pm" >"$T/pgnmentor.pgn" || {
		echo "not ok dupes-pgn-extract: cannot decompress the archives"
		return
	}
	if [ "${FULL:-0}" = 1 ]; then # each alone too (the joined run finds their repeats as well)
		against pgnmentor "$T/pgnmentor.pgn"
		against lichess "$T/lichess.pgn"
	fi
	if [ "${VCHESS_SAN:-0}" = 1 ]; then
		# under the sanitizers (make san) the code is the same on a quarter of
		# the games: pgnmentor twice; the check run compares all four files
		against pgnmentor-twice "$T/pgnmentor.pgn" "$T/pgnmentor.pgn"
	else
		against joined "$T/pgnmentor.pgn" "$T/lichess.pgn" "$T/pgnmentor.pgn" "$T/lichess.pgn"
	fi
}

planted
real
exit 0
