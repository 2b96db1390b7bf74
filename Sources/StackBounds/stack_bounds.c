// The function is `static inline` in include/stack_bounds.h; a C target needs one source file
// to be built, and this is it.
#include "stack_bounds.h"
