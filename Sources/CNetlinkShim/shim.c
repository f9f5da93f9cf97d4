#include "CNetlinkShim.h"
#include <linux/genetlink.h>

// NANSystem's Swift codec (Netlink/NetlinkMessage.swift, NetlinkAttributes.swift) writes and reads these
// headers by offset. If a libc or kernel header ever disagreed, the build fails here.
_Static_assert(sizeof(struct nlmsghdr) == 16, "NetlinkMessage.headerSize");
_Static_assert(sizeof(struct nlattr) == 4, "NetlinkAttributes.headerSize");
_Static_assert(sizeof(struct genlmsghdr) == 4, "GenericNetlinkMessage.headerSize");
_Static_assert(NLA_ALIGNTO == 4, "NetlinkAttributes.aligned");
_Static_assert(NLA_F_NESTED == (1 << 15), "NetlinkAttributes.nestedFlag");
_Static_assert(NLM_F_CAPPED == 0x100 && NLM_F_ACK_TLVS == 0x200, "NetlinkMessage.flagCapped / flagAckTLVs");
_Static_assert(NLMSGERR_ATTR_MSG == 1 && NLMSGERR_ATTR_OFFS == 2, "NetlinkAck attributes");
