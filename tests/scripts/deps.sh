#!/usr/bin/env bash
# build-aux/deps, the README's first step, against stand-ins for dpkg-query,
# apt-get, id and sudo that log what they are asked: nothing is installed,
# and nothing run as root, when nothing is missing; as root the missing
# packages are installed by apt-get itself, without sudo; as a user through
# sudo; as a user without sudo it says what is missing and fails.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
deps=$PWD/build-aux/deps

# stand-ins: MISSING lists the packages dpkg-query calls absent, UID_IS the user
stub() { # NAME BODY
	printf '#!/bin/sh\n%s\n' "$2" >"$tmp/bin/$1"
	chmod +x "$tmp/bin/$1"
}
mkdir -p "$tmp/bin"
stub dpkg-query 'for p; do :; done
case " $MISSING " in *" $p "*) echo "unknown ok not-installed" ;; *) printf "install ok installed" ;; esac'
stub apt-get 'echo "apt-get $*" >>"$LOG"'
stub id 'echo "$UID_IS"'
stub sudo 'echo "sudo $1 $2" >>"$LOG"; "$@"'
# no directory of the system's on PATH, so that a real sudo or apt-get is never found
mkdir -p "$tmp/base"
ln -s "$(command -v env)" "$tmp/base/env"
base=$tmp/base

run() { # NAME MISSING UID SUDO(0/1) WANT_STATUS WANT_LOG
	local name=$1 st log
	: >"$tmp/log"
	if [ "$4" = 1 ]; then p=$tmp/bin:$base; else
		mkdir -p "$tmp/nosudo"
		for f in dpkg-query apt-get id; do cp "$tmp/bin/$f" "$tmp/nosudo/"; done
		p=$tmp/nosudo:$base
	fi
	MISSING=$2 UID_IS=$3 LOG=$tmp/log PATH=$p /bin/sh "$deps" >"$tmp/out" 2>&1
	st=$?
	log=$(tr '\n' '|' <"$tmp/log")
	if [ "$st" = "$5" ] && [ "$log" = "$6" ]; then
		echo "ok deps-$name"
	else
		echo "not ok deps-$name: exit $st (expected $5), ran: '$log' (expected '$6')"
		sed 's/^/    /' "$tmp/out"
	fi
}
run nothing-missing-root "" 0 1 0 ""
run nothing-missing-user "" 1000 0 0 ""
run root-no-sudo "pgn-extract zlib1g-dev" 0 0 0 \
	"apt-get update -q|apt-get install -y -q --no-install-recommends zlib1g-dev pgn-extract|"
run user-sudo "libyaml-dev" 1000 1 0 \
	"sudo apt-get update|apt-get update -q|sudo env DEBIAN_FRONTEND=noninteractive|apt-get install -y -q --no-install-recommends libyaml-dev|"
run user-without-sudo "libyaml-dev" 1000 0 1 ""
