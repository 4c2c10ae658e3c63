#!/bin/sh
# Run the test suite.  If the pytest process itself dies (an abort or a
# segfault in native code), CI shows only the tail of the output, which is
# then the end of a long all-threads traceback.  So the suite records the
# test it is in and writes the crash's Python and native stacks to build/;
# after a crash this prints the crashing thread's stacks (native frames
# resolved by addr2line where binutils is installed) and, last, the test.
PY=${PYTHON:-python3}
mkdir -p build
TRAIL=build/test-trail
rm -f "$TRAIL" "$TRAIL.crash" "$TRAIL.native"
${CC:-cc} -O1 -g -shared -fPIC -o build/crash_backtrace.so tools/crash_backtrace.c 2>/dev/null ||
    rm -f build/crash_backtrace.so
[ $# -gt 0 ] || set -- tests
ASCENDRTC_TEST_TRAIL=$TRAIL "$PY" -m pytest -p no:faulthandler -q "$@"
st=$?
if [ "$st" -gt 128 ] || [ -s "$TRAIL.crash" ]; then
    if [ -s "$TRAIL.native" ]; then
        echo "== native frames of the crashing thread (innermost first):"
        head -n 24 "$TRAIL.native" | while read -r line; do
            lib=${line%%(*}
            off=$(echo "$line" | sed -n 's/.*(+\(0x[0-9a-f]*\)).*/\1/p')
            at=""
            if [ -n "$off" ] && command -v addr2line >/dev/null 2>&1; then
                at=$(addr2line -f -C -p -e "$lib" "$off" 2>/dev/null | head -n 1)
            fi
            echo "  ${line##*/}  $at"
        done
    fi
    if [ -s "$TRAIL.crash" ]; then
        echo "== Python stacks:"
        head -n 1 "$TRAIL.crash"
        awk '/^Current thread/{on=1} on&&/^$/{exit} on' "$TRAIL.crash" | head -n 8
        echo "frames in tests/ (all threads):"
        grep "/tests/" "$TRAIL.crash" | head -n 8
    fi
    echo "== the test process died (exit $st) in: $(cat "$TRAIL" 2>/dev/null || echo '(before the first test)')"
fi
exit $st
