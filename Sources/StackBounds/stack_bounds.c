// See include/stack_bounds.h.
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "stack_bounds.h"

#if defined(__APPLE__) || defined(__linux__)
#include <pthread.h>
#endif

int stack_bounds_current(uintptr_t *low, size_t *size) {
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
