// The current thread's stack bounds, which Swift cannot ask for on Linux: glibc's
// `pthread_getattr_np` is a GNU extension that the Glibc module does not export. Darwin's
// `pthread_get_stackaddr_np`/`pthread_get_stacksize_np` are here too, so that the library
// asks one function on every platform (see ThreadStack.swift).
#ifndef STACK_BOUNDS_H
#define STACK_BOUNDS_H

#include <stddef.h>
#include <stdint.h>

/// Sets `*low` to the lowest address of the calling thread's stack and `*size` to its size
/// in bytes, and returns 1; returns 0 (and sets nothing) where they cannot be known.
int stack_bounds_current(uintptr_t *_Nonnull low, size_t *_Nonnull size);

#endif
