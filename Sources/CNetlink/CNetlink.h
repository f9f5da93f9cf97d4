// libnl-3 and libnl-genl-3, as Debian ships them (libnl-3-dev, libnl-genl-3-dev).
// nl80211 numbers are not taken from a C header: NANSystem defines the Linux 7.2 values itself and a
// test checks them against the installed uapi header when one is present.
#include <netlink/netlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/family.h>
#include <linux/netlink.h>
