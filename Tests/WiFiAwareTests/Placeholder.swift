import Testing

@Test func placeholderWiFiAware() {}
