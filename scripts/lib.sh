# Sourced by the scripts that build or fetch a tool into the cache outside the repo (all but
# scripts/ensure-pulumi, which the npm package ships alone): their messages, the cache, the lock.
# Their progress goes to stderr; stdout carries only their result, if any (the last line).
# shellcheck shell=bash

me=$(basename "$0")
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
say() { printf '%s: %s\n' "$me" "$*" >&2; }
die() { printf '%s: error: %s\n' "$me" "$*" >&2; exit 1; }
# ~/.cache/pulumi-cdnstream/engine by default; some tools are cached beside it, in its parent.
cache_root=${CDNSTREAM_ENGINE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-cdnstream/engine}

# Runs "$@" with a deadline of $1 seconds: coreutils `timeout` stops the command's whole process
# group when it passes (SIGTERM, then SIGKILL 30 s later), and the step fails naming the command,
# its directory and the deadline. Sized generously: a deadline ends a hang, never a slow good run.
# Where there is no `timeout` (macOS without coreutils), the command runs without one.
deadline() {
  local seconds=$1 status=0
  shift
  command -v timeout >/dev/null 2>&1 || { "$@"; return; }
  timeout --kill-after=30 "$seconds" "$@" || status=$?
  case $status in
    124 | 137) printf '%s: error: `%s` (in %s) did not exit within its deadline of %ss: it and every process it started were stopped\n' \
      "${me:-$(basename "$0")}" "$*" "$PWD" "$seconds" >&2 ;;
  esac
  return "$status"
}

# A warm run's end: says $1, prints the path $2 (the script's last stdout line) and exits.
use() {
  say "$1"
  echo "$2"
  exit 0
}

# Fails unless a Go toolchain is on PATH: $1 says what is missing, $2 (optional) another way on.
need_go() {
  command -v go >/dev/null 2>&1 || die "$1 and no Go toolchain to build it.
  Install Go (https://go.dev/doc/install, or 'apt-get install golang'), then run scripts/$me again${2:+;
  $2}."
}

# Holds the lock of directory $1 (made when missing) until the script ends: one build at a time
# (CI, a test run and a developer may all ask); whoever waited finds the finished build.
lock() {
  mkdir -p "$1"
  exec 9>"$1/.lock"
  flock 9
}

# Prefixes each line read with the seconds since $start: the progress a long step shows.
progress() {
  local line
  while IFS= read -r line; do printf '%s: [%ss] %s\n' "$me" "$(($(date +%s) - start))" "$line" >&2; done
}

# Builds the Go program in $repo/$1 once into $2/$3 (unless there), cached by the caller's key in
# $2; $4 says what it is ("the SDK generator"), $5 where its code comes from.
build_go_once() {
  local src=$1 dir=$2 name=$3 what=$4 from=$5 start
  [ ! -x "$dir/$name" ] || return 0
  need_go "no cached ${what#the }"
  lock "$dir"
  [ ! -x "$dir/$name" ] || return 0
  start=$(date +%s)
  say "building $what ($from, from the Go module proxy) into $dir"
  (cd "$repo/$src" && GOWORK=off GOFLAGS=-mod=mod deadline 1800 go build -o "$dir/$name.tmp" .) >&2 ||
    die "building $src failed (see above)"
  mv "$dir/$name.tmp" "$dir/$name"
  say "built $what in $(($(date +%s) - start))s"
}
