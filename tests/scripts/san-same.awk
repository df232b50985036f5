# san-same.awk: awk -v test=NAME -f tests/scripts/san-same.awk FFISH.pgn VCHESS.pgn
# The moves of two PGN files, token by token (tags, move numbers, comments
# and results left out): the SAN that ffish wrote and the SAN that vchess
# wrote of the same games.  They must be the same, but for the mark of a
# move that ends the game: ffish writes '#' for a checkmate alone, vchess
# for every move that ends the game with a winner (vchess-text(5)), so
# vchess's '#' stands where ffish has '+' or nothing.  Prints one line of
# TAP, "ok NAME" or "not ok NAME", then the first five differences.
function toks(line, arr, n,   k, i, t, w) {
	if (line ~ /^\[/ || line ~ /^\{/)
		return n
	k = split(line, w, /[ \t]+/)
	for (i = 1; i <= k; i++) {
		t = w[i]
		sub(/^[0-9]+\.+/, "", t)
		if (t == "" || t ~ /^(1-0|0-1|1\/2-1\/2|\*)$/)
			continue
		arr[++n] = t
	}
	return n
}
FNR == NR { na = toks($0, a, na); next }
{ nb = toks($0, b, nb) }
END {
	n = na > nb ? na : nb
	for (i = 1; i <= n; i++) {
		x = a[i]; y = b[i]
		if (x == y)
			continue
		bx = x; sub(/[+#]$/, "", bx)
		by = y; sub(/[+#]$/, "", by)
		if (bx == by && y ~ /#$/ && x !~ /#$/)
			continue
		if (++bad <= 5)
			diffs = diffs sprintf("    move %d: ffish %s, vchess %s\n", i,
					      x == "" ? "(none)" : x, y == "" ? "(none)" : y)
	}
	if (!bad && n)
		printf "ok %s: vchess writes ffish's SAN, %d moves\n", test, n
	else
		printf "not ok %s: vchess writes %d of %d moves otherwise than ffish\n%s", test, bad, n, diffs
}
