// getenv for the fuzz harness (Glibc is only imported here, never by NANWire itself).
#if canImport(Glibc)
    import Glibc
#endif

func getenvString(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    return String(cString: value)
}
