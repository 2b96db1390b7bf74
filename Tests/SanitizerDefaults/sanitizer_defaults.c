// Defaults for AddressSanitizer when the tests run under `swift test --sanitize=address`.
//
// Memory errors (overflows, use after free) are caught as usual. Leak detection is off for
// the test process: every leak it reported there was traced to XCTest, to Foundation
// internals (Data(contentsOf:), URL parsing) or to static test tables, none through the
// library. The library's own leak check is the fuzz targets (Fuzz/run.sh), which run with
// LeakSanitizer on over millions of inputs.
//
// ASan calls this before any Swift code can run, so it is C, and not instrumented itself.
#include "sanitizer_defaults.h"

__attribute__((no_sanitize("address"), used, visibility("default")))
const char *__asan_default_options(void) {
    return "detect_leaks=0";
}
