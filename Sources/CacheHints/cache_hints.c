// The hint is `static inline` in include/cache_hints.h, so that Swift inlines it; a C target
// needs one source file to be built, and this is it.
#include "cache_hints.h"
