// NANSystem: the only module that talks to the kernel (netlink, nl80211, mac80211_hwsim) or touches
// C and unsafe pointers. Start at NL80211/NL80211Session.swift and HWSim/HWSimSession.swift;
// docs/nl80211.md lists the public API and the concurrency model.
