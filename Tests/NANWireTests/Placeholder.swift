import Testing

@Test func placeholderNANWire() {}
