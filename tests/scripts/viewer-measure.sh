#!/usr/bin/env bash
# The web page of 1,000 lichess games measured in a browser: its size, the time
# to its first paint, and the time of a step (see viewer.sh, which does it).
VIEWER_PART=measure exec bash "$(dirname "$0")/viewer.sh"
