#!/usr/bin/env bash
# Runs outboxify scan and fix over the real services in realcode/services.tsv
# and prints one markdown table row per service.
#
#   realcode/run.sh [-o table.md] [name ...]     # default: every service
#   LAYOUT_ONLY=1 realcode/run.sh                 # only lay the snapshots out
#   OBX=/path/to/outboxify OUT=dir realcode/run.sh  # another binary, its own logs
#   TESTS=1 realcode/run.sh ...                   # also the service's own go test -short
#
# Each snapshot comes from the search tool's fetch mirror ($MIRROR, default
# /work/.mirror/<owner>+<name>/repo, a bare git directory) and is laid out under
# $REALCODE (default /work/realcode, outside this repository):
#   $REALCODE/src/<name>   pristine tree at the pinned commit (scan runs here)
#   $REALCODE/fix/<name>   a fresh copy that fix rewrites
#   $OUT/<name>.*          scan json, fix output, build and vet logs, go.mod diff
#                          (OUT defaults to $REALCODE/out)
# Their code never enters this repository. Module downloads go through the Go
# module proxy; GOTOOLCHAIN=local so no toolchain is fetched.
#
# Columns: build/vet before fix (pristine tree), scan exit and findings, fix exit,
# rewritten and left counts, go.mod and go.sum unchanged, build/vet after fix,
# re-scan after fix (findings; rewritten sites reported again), and with
# TESTS=1 the service's own `go test -short ./...` before and after fix as
# packages ok/failed (tests that need servers fail the same way both times).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
MIRROR=${MIRROR:-/work/.mirror}
REALCODE=${REALCODE:-/work/realcode}
STEP_TIMEOUT=${STEP_TIMEOUT:-1500}
OUT=${OUT:-$REALCODE/out} # logs and scan/fix output of this run
export GOTOOLCHAIN=local GOFLAGS=${GOFLAGS:-}

table=
if [ "${1:-}" = -o ]; then table=$2; shift 2; fi
want=" $* "

mkdir -p "$REALCODE/src" "$REALCODE/fix" "$OUT" "$REALCODE/bin"
if [ -n "${OBX:-}" ]; then # a given binary (an older outboxify, for a before/after table)
  obx=$OBX rev=${OBX_REV:-given binary}
else
  obx=$REALCODE/bin/outboxify-$$
  (cd "$repo" && go build -o "$obx" ./cmd/outboxify) || { echo "run.sh: cannot build outboxify" >&2; exit 2; }
  rev=$(cd "$repo" && git rev-parse --short HEAD)
fi

row() { # prints and appends to the table file
  printf '%s\n' "$1"
  [ -z "$table" ] || printf '%s\n' "$1" >>"$table"
}

# ok|FAIL|timeout of a command run in a directory, its output in a log file
step() { # dir log cmd...
  local dir=$1 log=$2; shift 2
  (cd "$dir" && timeout "$STEP_TIMEOUT" "$@") >"$log" 2>&1
  local rc=$?
  case $rc in 0) echo ok ;; 124) echo timeout ;; *) echo "FAIL($rc)" ;; esac
}

if [ -n "$table" ]; then
  : >"$table"
  row "outboxify $rev, $(date -u +%Y-%m-%d), $(go version | awk '{print $3}')"
  row ""
fi
row "| service | half | size | go line | build before | vet before | scan exit | findings | fix exit | rewritten | left | go.mod same | go.sum same | build after | vet after | re-scan | tests before | tests after |"
row "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"

while IFS=$'\t' read -r name slug commit module size half _why; do
  case $name in '#'* | '') continue ;; esac
  [ "$want" = "  " ] || [[ $want == *" $name "* ]] || continue
  git_dir=$MIRROR/${slug/\//+}/repo
  if [ ! -d "$git_dir" ]; then
    row "| $name | $half | $size | not fetched: fetch github:$slug with the search tool | | | | | | | | | | | |"
    continue
  fi
  src=$REALCODE/src/$name fix=$REALCODE/fix/$name out=$OUT/$name
  if [ ! -f "$src/.outboxify-realcode" ]; then
    rm -rf "$src" && mkdir -p "$src"
    if ! git --git-dir="$git_dir" archive "$commit" 2>/dev/null | tar -x -C "$src" 2>/dev/null; then
      # snapshots lack files of 4 MiB and more: lay out file by file, list what is missing
      git --git-dir="$git_dir" cat-file -e "$commit^{tree}" 2>/dev/null || { row "| $name | $half | $size | commit $commit missing in the mirror | | | | | | | | | | | |"; continue; }
      rm -rf "$src" && mkdir -p "$src"
      git --git-dir="$git_dir" ls-tree -r "$commit" | while IFS=$'\t' read -r meta path; do
        set -- $meta
        [ "$2" = blob ] || continue
        mkdir -p "$src/$(dirname "$path")"
        if [ "$1" = 120000 ]; then ln -s "$(git --git-dir="$git_dir" cat-file blob "$3")" "$src/$path"
        elif ! git --git-dir="$git_dir" cat-file blob "$3" >"$src/$path" 2>/dev/null; then rm -f "$src/$path"; echo "missing $path" >>"$src/.outboxify-missing"; fi
        [ "$1" != 100755 ] || chmod +x "$src/$path" 2>/dev/null
      done
    fi
    echo "$slug $commit" >"$src/.outboxify-realcode"
  fi
  [ -z "${LAYOUT_ONLY:-}" ] || { echo "laid out $src"; continue; }
  rm -rf "$fix" && cp -a "$src" "$fix"
  mod=$src/$module fmod=$fix/$module
  # go.mod and go.sum as fix finds them: the before-steps below (go mod
  # download, build, vet) may add go.sum lines to the pristine tree
  cp "$fmod/go.mod" "$out.gomod.before"
  if [ -f "$fmod/go.sum" ]; then cp "$fmod/go.sum" "$out.gosum.before"; else rm -f "$out.gosum.before"; fi
  goline=$(awk '$1 == "go" {print $2; exit}' "$mod/go.mod")

  (cd "$mod" && timeout "$STEP_TIMEOUT" go mod download) >"$out.download.log" 2>&1
  b0=$(step "$mod" "$out.build0.log" go build ./...)
  v0=$(step "$mod" "$out.vet0.log" go vet ./...)

  (cd "$mod" && timeout "$STEP_TIMEOUT" "$obx" scan --format json ./...) >"$out.scan.json" 2>"$out.scan.err"
  src_rc=$?
  nfind=$(python3 -c 'import json,sys
try: print(len(json.load(open(sys.argv[1])).get("findings") or []))
except Exception: print("?")' "$out.scan.json")

  (cd "$fmod" && timeout "$STEP_TIMEOUT" "$obx" fix --format json ./...) >"$out.fix.json" 2>"$out.fix.err"
  fix_rc=$?
  read -r nrew nleft < <(python3 -c 'import json,sys
try:
    d=json.load(open(sys.argv[1]))
    print(len(d.get("replaced") or d.get("fixed") or []), len(d.get("left") or d.get("manual") or []))
except Exception: print("? ?")' "$out.fix.json")

  diff -u "$out.gomod.before" "$fmod/go.mod" >"$out.gomod.diff" && gm=yes || gm=no
  if [ -f "$out.gosum.before" ] || [ -f "$fmod/go.sum" ]; then
    cmp -s "$out.gosum.before" "$fmod/go.sum" && gs=yes || gs=no
  else gs=yes; fi
  b1=$(step "$fmod" "$out.build1.log" go build ./...)
  v1=$(step "$fmod" "$out.vet1.log" go vet ./...)

  # re-scan the fixed tree: findings, and how many sit where fix rewrote
  (cd "$fmod" && timeout "$STEP_TIMEOUT" "$obx" scan --format json ./...) >"$out.rescan.json" 2>"$out.rescan.err"
  rescan=$(python3 -c 'import json,sys
try:
    f=json.load(open(sys.argv[1])).get("findings") or []
    fx=json.load(open(sys.argv[2]))
    at={(r["after"]["file"], r["after"]["line"]) for r in fx.get("replaced") or []}
    print("%d (%d at rewritten sites)" % (len(f), sum((x["file"], x["line"]) in at for x in f)))
except Exception: print("?")' "$out.rescan.json" "$out.fix.json")

  t0= t1=
  if [ -n "${TESTS:-}" ]; then
    gotest() { # dir log -> "ok N / FAIL M"
      (cd "$1" && timeout "$STEP_TIMEOUT" go test -short -count=1 ./...) >"$2" 2>&1
      echo "ok $(grep -c '^ok' "$2") / FAIL $(grep -c '^FAIL	' "$2")"
    }
    t0=$(gotest "$mod" "$out.test0.log")
    t1=$(gotest "$fmod" "$out.test1.log")
  fi

  row "| $name | $half | $size | $goline | $b0 | $v0 | $src_rc | $nfind | $fix_rc | $nrew | $nleft | $gm | $gs | $b1 | $v1 | $rescan | $t0 | $t1 |"
done <"$here/services.tsv"
