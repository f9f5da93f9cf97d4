#include "CNetlinkShim.h"

int cnl_nla_align(int len) { return NLA_ALIGN(len); }
