#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "CSystemShim.h"

#include <errno.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static int read_sets(struct __user_cap_data_struct data[2]) {
    struct __user_cap_header_struct header = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
    return syscall(SYS_capget, &header, data) == 0 ? 0 : -errno;
}

int waware_capabilities_get(uint64_t *effective, uint64_t *permitted, uint64_t *inheritable) {
    struct __user_cap_data_struct data[2] = {{0}};
    int result = read_sets(data);
    if (result != 0) return result;
    *effective = (uint64_t)data[1].effective << 32 | data[0].effective;
    *permitted = (uint64_t)data[1].permitted << 32 | data[0].permitted;
    *inheritable = (uint64_t)data[1].inheritable << 32 | data[0].inheritable;
    return 0;
}

int waware_capability_bounding(int capability) {
    int result = prctl(PR_CAPBSET_READ, capability, 0, 0, 0);
    return result >= 0 ? result : -errno;
}

int waware_capabilities_keep_only(uint64_t keep) {
    struct __user_cap_data_struct data[2] = {{0}};
    int result = read_sets(data);
    if (result != 0) return result;
    int may_drop_bounding = (data[0].effective >> CAP_SETPCAP) & 1;
    // The bounding set first: dropping from it needs CAP_SETPCAP, which the capset below removes.
    if (may_drop_bounding) {
        for (int capability = 0; capability <= 63; capability++) {
            if ((keep >> capability) & 1) continue;
            int present = prctl(PR_CAPBSET_READ, capability, 0, 0, 0);
            if (present < 0) break;   // past the last capability this kernel knows
            if (present && prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0) return -errno;
        }
    }
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) return -errno;
    uint32_t low = (uint32_t)keep, high = (uint32_t)(keep >> 32);
    data[0].effective &= low; data[0].permitted &= low; data[0].inheritable &= low;
    data[1].effective &= high; data[1].permitted &= high; data[1].inheritable &= high;
    struct __user_cap_header_struct header = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
    if (syscall(SYS_capset, &header, data) != 0) return -errno;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -errno;
    return 0;
}
