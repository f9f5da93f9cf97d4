// One import for a program written against Apple's Network and WiFiAware frameworks: this module re-exports
// the WiFiAware API (the lower level it is built on) and FoundationEssentials (`Data`, `#Predicate`).
@_exported public import FoundationEssentials
@_exported public import WiFiAware
