#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - coverage-guided fuzzing of the replay path (`make fuzz`).
#
#   FUZZ_SECONDS=N   how long to fuzz (default 300)
#   FUZZ_JOBS=N      parallel libFuzzer workers (-fork=N; default: number of CPUs)
#   FUZZ_TARGET=T    replay (default: fuzz_replay.c, whole trace.dat files), pages
#                    (fuzz_pages.c: structure-aware edits of page headers, commits,
#                    event headers and v7 chunks of valid files) or events
#                    (fuzz_events.c: hostile rq_event streams straight into the engine)
#                    or markers (fuzz_markers.c: the marker grammar, parse -> format ->
#                    parse must give the same marker)
#   RQPATH_BUILD     build directory (default <repo>/build); everything goes in
#                    $RQPATH_BUILD/fuzz: the harness, corpus/, artifacts/
#
# Builds tests/fuzz/fuzz_replay.c with clang -fsanitize=fuzzer,address,undefined
# against the engine sources it needs (compiled directly, no views), seeds the corpus
# from fixtures/*.dat, fixtures/crashers/*, ../shared/traces/*.dat (cut down to small
# seeds by mkseed.py), fuzzes, prints how many inputs were executed, and copies every
# crasher into fixtures/crashers/ (the regression corpus replayed by
# tests/robust/t_crashers.sh).  Exit 0 when nothing was found, 1 otherwise.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
: "${RQPATH_BUILD:=$top/build}"
: "${FUZZ_SECONDS:=300}"
: "${FUZZ_JOBS:=$(nproc 2>/dev/null || echo 1)}"
: "${CLANG:=clang}"
: "${SHARED_TRACES:=$top/../shared/traces}"
: "${FUZZ_TARGET:=replay}"
case $FUZZ_TARGET in
replay) out=$RQPATH_BUILD/fuzz ;;
pages) out=$RQPATH_BUILD/fuzz-pages ;;
events) out=$RQPATH_BUILD/fuzz-events ;;
markers) out=$RQPATH_BUILD/fuzz-markers ;;
*) echo "fuzz: FUZZ_TARGET is replay, pages, events or markers" >&2; exit 2 ;;
esac
harness=fuzz_$FUZZ_TARGET
corpus=$out/corpus
art=$out/artifacts
crashers=$top/fixtures/crashers
# events and pages crashers are not trace.dat files: kept apart (replay them with the
# harness; pages inputs are edits of the bases below)
[ "$FUZZ_TARGET" = events ] && crashers=$crashers/events
[ "$FUZZ_TARGET" = pages ] && crashers=$crashers/pages
[ "$FUZZ_TARGET" = markers ] && crashers=$crashers/markers

command -v "$CLANG" >/dev/null 2>&1 || { echo "fuzz: $CLANG not found (apt-get install clang)" >&2; exit 2; }
mkdir -p "$out" "$corpus" "$art" "$crashers" || exit 2

# The library (src/*/*.c but src/cli/: no views, no CLI), compiled with the harness.
files=$(ls "$top"/src/base/*.c "$top"/src/input/*.c "$top"/src/engine/*.c "$top"/src/output/*.c)
pkgs="libtracefs libtraceevent libbsd libzstd zlib"
echo "fuzz: building $out/$harness"
# shellcheck disable=SC2086
"$CLANG" -g -O1 -std=gnu11 -D_GNU_SOURCE -DRQPATH_VERSION=\"fuzz\" -fno-omit-frame-pointer \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-I"$top/src/base" -I"$top/src/input" -I"$top/src/engine" -I"$top/src/output" $(pkg-config --cflags $pkgs) \
	-o "$out/$harness" "$top/tests/fuzz/$harness.c" $files \
	$(pkg-config --libs $pkgs) -lm || {
	echo "fuzz: cannot build the harness (libFuzzer: apt-get install libclang-rt-dev?)" >&2
	exit 2
}

# Seeds (replay): our fixtures as they are, the crashers, small cuts of foreign traces.
[ "$FUZZ_TARGET" = replay ] && for f in "$top"/fixtures/*.dat "$top"/fixtures/malformed/* "$crashers"/*; do
	[ -f "$f" ] || continue
	[ "$(wc -c <"$f")" -le 1048576 ] && cp "$f" "$corpus/seed-$(basename "$f")"
done
# kernel truth (issue 21): a file with an rqpath-truth buffer, v6 and v7 (make check builds
# the helper that writes them)
[ "$FUZZ_TARGET" = replay ] && [ -x "$RQPATH_BUILD/tests/truth_seed" ] && for v in 6 7; do
	"$RQPATH_BUILD/tests/truth_seed" $v "$corpus/seed-truth-v$v.dat" || true
done
[ "$FUZZ_TARGET" = replay ] && for f in "$SHARED_TRACES"/*.dat; do
	[ -f "$f" ] || continue
	python3 "$top/tests/fuzz/mkseed.py" "$f" "$corpus/seed-cut2-$(basename "$f")" --pages 2 \
		2>/dev/null || true
done

# pages: the valid files its edits start from (v6, v7 zstd, v7 uncompressed)
if [ "$FUZZ_TARGET" = pages ]; then
	bases="$top/fixtures/spawn.v6.dat:$top/fixtures/spawn.dat"
	if command -v trace-cmd >/dev/null &&
	   trace-cmd convert -i "$top/fixtures/spawn.v6.dat" --file-version 7 --compression none \
		-o "$out/base-none.dat" >/dev/null 2>&1; then
		bases="$bases:$out/base-none.dat"
	fi
	export RQPATH_FUZZ_BASES="$bases"
	[ -n "$(ls "$corpus")" ] || printf '\000\001\000\000\000\000\000\000\000\000' >"$corpus/seed-empty"
fi

# leaks inside libtraceevent are
# suppressed by src/session/replay.c, ours are reported.  Sizes read from a hostile file make
# the libraries ask for absurd amounts of memory: let malloc() fail (NULL) as it does
# without ASan, instead of calling that a crash (and cap one allocation at 2 GiB).
# No -rss_limit_mb: its thread can hold ASan's allocator lock when replay.c forks its
# probe child, which then deadlocks (clang 14); the cap above bounds memory instead.
# crashers of earlier runs are in fixtures/crashers already (or were triaged away)
rm -f "$art"/crash-* "$art"/leak-* "$art"/timeout-* "$art"/oom-*
before=0
log=$out/fuzz.log
dict=
[ "$FUZZ_TARGET" = events ] && dict=-dict=$top/tests/fuzz/events.dict
[ "$FUZZ_TARGET" = markers ] && dict=-dict=$top/tests/fuzz/events.dict
# markers: the lines of every fixture as seeds
if [ "$FUZZ_TARGET" = markers ] && command -v trace-cmd >/dev/null; then
	for f in "$top"/fixtures/*.dat; do
		trace-cmd report "$f" 2>/dev/null | sed -n 's/.*rqpath\/1 //p' | sort -u | head -50
	done | while IFS= read -r l; do
		printf '%s' "$l" >"$corpus/seed-$(printf '%s' "$l" | cksum | cut -d' ' -f1)"
	done
fi
echo "fuzz: $FUZZ_SECONDS s, $FUZZ_JOBS job(s), corpus $corpus, log $log"
ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1:max_allocation_size_mb=2048}" \
UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}" \
	"$out/$harness" -fork="$FUZZ_JOBS" -ignore_crashes=1 -ignore_timeouts=1 \
	-ignore_ooms=1 -max_total_time="$FUZZ_SECONDS" -max_len=262144 -timeout=20 \
	-rss_limit_mb=0 -malloc_limit_mb=0 -print_final_stats=1 -artifact_prefix="$art/" \
	$dict "$corpus" >"$log" 2>&1
rc=$?

# In fork mode each worker prints its own stats; the parent's #N lines are the total.
execs=$(grep -o '^#[0-9]*' "$log" | tail -n 1 | tr -d '#')
[ -n "$execs" ] || execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" |
	awk '{ s += $2 } END { print s + 0 }')
echo "fuzz: exit $rc, ${execs:-0} inputs executed in $FUZZ_SECONDS s, corpus $(ls "$corpus" | wc -l) files"

found=0
for a in "$art"/crash-* "$art"/leak-* "$art"/timeout-* "$art"/oom-*; do
	[ -f "$a" ] || continue
	n=$(basename "$a")
	if [ ! -f "$crashers/$n" ]; then
		cp "$a" "$crashers/$n"
		echo "fuzz: new crasher kept: ${crashers#"$top"/}/$n"
		found=$((found + 1))
	fi
done
after=$(ls "$art" | wc -l)
[ "$after" -gt "$before" ] && echo "fuzz: $((after - before)) new artifact(s) in $art"
[ $found -eq 0 ] && [ "$after" -eq "$before" ]
