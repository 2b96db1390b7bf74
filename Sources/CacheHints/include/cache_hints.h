// A hint Swift cannot spell: ask the processor to bring a cache line in without waiting for it.
//
// The encoder's uniquing tables are larger than the caches on big inputs, and a batch of keys
// about to be looked up lands in random slots. Reading each slot ahead ("touching" it) makes
// the misses overlap, but a read must complete before the processor can retire it, so a batch
// of misses still stops the work behind it. A prefetch instruction retires at once: the lines
// arrive while the work goes on. The standard library has no prefetch, so it is C here
// (clang's `__builtin_prefetch`: `prefetcht0` on x86-64, `prfm pldl1keep` on arm64, nothing
// where there is no such instruction). A hint never faults and changes nothing that is read.
#ifndef CACHE_HINTS_H
#define CACHE_HINTS_H

/// Asks for the cache line holding `address` to be read into every cache level, without
/// waiting for it. Any address is allowed (null included): a prefetch never faults.
static inline __attribute__((always_inline)) void cache_hint_read(const void *_Nullable address) {
    __builtin_prefetch(address, 0, 3);
}

#endif
