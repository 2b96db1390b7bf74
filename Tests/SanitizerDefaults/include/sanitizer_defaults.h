#ifndef KEYEDARCHIVE_SANITIZER_DEFAULTS_H
#define KEYEDARCHIVE_SANITIZER_DEFAULTS_H
/// AddressSanitizer's default options for the test process (see sanitizer_defaults.c).
const char *__asan_default_options(void);
#endif
