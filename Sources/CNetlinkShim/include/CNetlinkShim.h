#ifndef CNETLINKSHIM_H
#define CNETLINKSHIM_H
// Small C helpers for libnl macros and inline functions that Swift cannot import.
// Every function is prefixed `cnl_` and says why it exists.
//
// NANSystem currently needs none: it builds and parses netlink messages in Swift (so they can be
// tested on bytes) and calls only plain libnl functions, which Swift imports directly. shim.c holds
// compile-time checks of the C layouts that the Swift codec hard-codes.
#include <netlink/netlink.h>
#include <netlink/attr.h>

/// Sets or clears IFF_UP on the netdev `name` (a NAN data interface), through SIOCGIFFLAGS/SIOCSIFFLAGS.
/// Exists because ioctl is variadic and `struct ifreq` a union, neither of which Swift imports usably.
/// Returns 0, or -errno.
int cnl_set_interface_up(const char *name, int up);

#endif
