#ifndef CNETLINKSHIM_H
#define CNETLINKSHIM_H
// Small C helpers for libnl macros and inline functions that Swift cannot import.
// Every function is prefixed `cnl_` and says why it exists.
#include <netlink/netlink.h>
#include <netlink/attr.h>

/// NLA_ALIGN is a function-like macro; Swift cannot call it.
int cnl_nla_align(int len);

#endif
