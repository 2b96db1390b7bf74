// The current thread's stack bounds, which Swift cannot ask for on Linux: glibc's
// `pthread_getattr_np` is a GNU extension that the Glibc module does not export. Darwin's
// `pthread_get_stackaddr_np`/`pthread_get_stacksize_np` are here too, so that the library
// asks one function on every platform (see ThreadStack.swift).
//
// `static inline` (as CacheHints is): Swift compiles it into the library, so no C object file
// is built, whose DWARF 5 debug information valgrind 3.19 cannot read (it gives up on the
// whole binary, and Scripts/callgrind-codec.sh with it).
#ifndef STACK_BOUNDS_H
#define STACK_BOUNDS_H

#include <stddef.h>
#include <stdint.h>
#if defined(__APPLE__) || defined(__linux__)
#include <pthread.h>
#endif

#if defined(__linux__)
// Declared by <pthread.h> only under _GNU_SOURCE, which a module's headers cannot set for
// the system's: glibc's and musl's own prototype.
extern int pthread_getattr_np(pthread_t thread, pthread_attr_t *_Nonnull attributes);
#endif

/// Sets `*low` to the lowest address of the calling thread's stack and `*size` to its size
/// in bytes, and returns 1; returns 0 (and sets nothing) where they cannot be known.
static inline int stack_bounds_current(uintptr_t *_Nonnull low, size_t *_Nonnull size) {
#if defined(__APPLE__)
    pthread_t thread = pthread_self();
    uintptr_t high = (uintptr_t)pthread_get_stackaddr_np(thread);
    size_t bytes = pthread_get_stacksize_np(thread);
    if (bytes == 0 || high < bytes) return 0;
    *low = high - bytes;
    *size = bytes;
    return 1;
#elif defined(__linux__)
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return 0;
    void *address = NULL;
    size_t bytes = 0;
    int found = pthread_attr_getstack(&attributes, &address, &bytes) == 0 && address != NULL && bytes > 0;
    pthread_attr_destroy(&attributes);
    if (!found) return 0;
    *low = (uintptr_t)address;
    *size = bytes;
    return 1;
#else
    (void)low;
    (void)size;
    return 0;
#endif
}

#endif
