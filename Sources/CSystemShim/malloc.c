// glibc's malloc tuning, which Swift cannot reach: <malloc.h> is not in the Glibc module.
#include <malloc.h>

#include "CSystemShim.h"

int waware_malloc_arena_max(int count) { return mallopt(M_ARENA_MAX, count) == 1 ? 0 : -1; }
