import Testing

@Test func placeholderNANSystem() {}
