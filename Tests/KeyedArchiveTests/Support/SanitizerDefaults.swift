// Linked for its `__asan_default_options`, which `swift test --sanitize=address` picks up
// (see Tests/SanitizerDefaults/sanitizer_defaults.c).
import SanitizerDefaults
