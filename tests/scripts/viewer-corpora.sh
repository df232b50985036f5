#!/usr/bin/env bash
# The web page of the archives of corpora/ in a browser (see viewer.sh, which
# does it).
VIEWER_PART=corpora exec bash "$(dirname "$0")/viewer.sh"
