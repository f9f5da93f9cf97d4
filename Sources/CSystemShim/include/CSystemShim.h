// Process capabilities (capget/capset and prctl), which Swift cannot call: glibc declares no capget or
// capset, and prctl and syscall are variadic; and glibc's malloc tuning (mallopt). Used only by NANSystem.
#ifndef WAWARE_CSYSTEMSHIM_H
#define WAWARE_CSYSTEMSHIM_H

#include <stdint.h>

/// The calling thread's effective, permitted and inheritable capability sets, as bit masks (bit n is
/// capability n). Returns 0, or -errno.
int waware_capabilities_get(uint64_t *effective, uint64_t *permitted, uint64_t *inheritable);

/// Whether capability `capability` is in the bounding set: 1, 0, or -errno.
int waware_capability_bounding(int capability);

/// Keeps only the capabilities in `keep` for the process and every program it could run: drops the others
/// from the bounding set (when CAP_SETPCAP allows it), clears the ambient set, narrows the effective,
/// permitted and inheritable sets to `keep`, and sets no_new_privs. Returns 0, or -errno of the first step
/// that failed (the steps before it stay done). Call before any other thread runs work that needs a
/// dropped capability: capset applies to the calling thread, and threads made later inherit it.
int waware_capabilities_keep_only(uint64_t keep);

/// Caps the number of glibc malloc arenas at `count` (mallopt M_ARENA_MAX; glibc otherwise makes one per
/// thread that allocates, up to 8 per core, each holding its own freed pages). Returns 0, or -1.
int waware_malloc_arena_max(int count);

#endif
