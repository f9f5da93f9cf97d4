#include "CNetlinkShim.h"
#include <linux/genetlink.h>
#include <errno.h>
#include <net/if.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

int cnl_set_interface_up(const char *name, int up) {
    if (strlen(name) >= IFNAMSIZ) return -EINVAL;
    int fd = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -errno;
    struct ifreq request;
    memset(&request, 0, sizeof request);
    strncpy(request.ifr_name, name, IFNAMSIZ - 1);
    int result = 0;
    if (ioctl(fd, SIOCGIFFLAGS, &request) < 0) {
        result = -errno;
    } else {
        if (up) request.ifr_flags |= IFF_UP; else request.ifr_flags &= ~IFF_UP;
        if (ioctl(fd, SIOCSIFFLAGS, &request) < 0) result = -errno;
    }
    close(fd);
    return result;
}

// NANSystem's Swift codec (Netlink/NetlinkMessage.swift, NetlinkAttributes.swift) writes and reads these
// headers by offset. If a libc or kernel header ever disagreed, the build fails here.
_Static_assert(sizeof(struct nlmsghdr) == 16, "NetlinkMessage.headerSize");
_Static_assert(sizeof(struct nlattr) == 4, "NetlinkAttributes.headerSize");
_Static_assert(sizeof(struct genlmsghdr) == 4, "GenericNetlinkMessage.headerSize");
_Static_assert(NLA_ALIGNTO == 4, "NetlinkAttributes.aligned");
_Static_assert(NLA_F_NESTED == (1 << 15), "NetlinkAttributes.nestedFlag");
_Static_assert(NLM_F_CAPPED == 0x100 && NLM_F_ACK_TLVS == 0x200, "NetlinkMessage.flagCapped / flagAckTLVs");
_Static_assert(NLMSGERR_ATTR_MSG == 1 && NLMSGERR_ATTR_OFFS == 2, "NetlinkAck attributes");
