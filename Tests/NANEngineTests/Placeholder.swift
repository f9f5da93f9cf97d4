import Testing

@Test func placeholderNANEngine() {}
