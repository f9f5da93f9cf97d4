import Testing
@testable import NANWire

@Suite struct MatchingFilterTests {
    func f(_ elements: [String]) -> MatchingFilter {
        try! MatchingFilter(elements: elements.map { $0 == "*" ? [] : Array($0.utf8) })
    }

    @Test func missingOrEmptySubscriberFilterMatchesAnything() {
        #expect(MatchingFilter.matches(subscriber: nil, publisher: f(["a"])))
        #expect(MatchingFilter.matches(subscriber: nil, publisher: nil))
        #expect(MatchingFilter.matches(subscriber: f([]), publisher: f(["b"])))
        #expect(MatchingFilter.matches(subscriber: f([]), publisher: nil))
    }

    @Test func withoutPublisherFilterOnlyWildcardsMatch() {
        #expect(!MatchingFilter.matches(subscriber: f(["a"]), publisher: nil))
        #expect(MatchingFilter.matches(subscriber: f(["*", "*"]), publisher: nil))
    }

    @Test func emptyPublisherFilterCountsAsOneWildcard() {
        #expect(MatchingFilter.matches(subscriber: f(["a"]), publisher: f([])))
        #expect(!MatchingFilter.matches(subscriber: f(["a", "b"]), publisher: f([])))
    }

    @Test func equalElementsMatchAndDifferentOnesDoNot() {
        #expect(MatchingFilter.matches(subscriber: f(["a", "b"]), publisher: f(["a", "b"])))
        #expect(!MatchingFilter.matches(subscriber: f(["a", "b"]), publisher: f(["a", "c"])))
        #expect(!MatchingFilter.matches(subscriber: f(["ab"]), publisher: f(["a"])))
    }

    @Test func emptyElementIsAWildcardOnEitherSide() {
        #expect(MatchingFilter.matches(subscriber: f(["*", "b"]), publisher: f(["x", "b"])))
        #expect(MatchingFilter.matches(subscriber: f(["a", "b"]), publisher: f(["*", "b"])))
        #expect(!MatchingFilter.matches(subscriber: f(["*", "b"]), publisher: f(["*", "c"])))
    }

    @Test func subscriberLongerThanPublisherDoesNotMatch() {
        #expect(!MatchingFilter.matches(subscriber: f(["a", "b"]), publisher: f(["a"])))
        #expect(MatchingFilter.matches(subscriber: f(["a"]), publisher: f(["a", "b"])))
    }

    @Test func roundTripsWireBytes() throws {
        let filter = f(["abc", "*", "z"])
        #expect(Array(filter.bytes) == hex("03 61 62 63 00 01 7a"))
        #expect(try MatchingFilter(validating: filter.bytes) == filter)
    }

    @Test func rejectsFiltersOver255Bytes() {
        #expect(throws: NANWireError.self) {
            _ = try MatchingFilter(elements: [[UInt8](repeating: 1, count: 200), [UInt8](repeating: 2, count: 60)])
        }
    }
}

/// Bloom filter vectors computed independently with Python:
/// `h = (~zlib.crc32(bytes([j]) + mac)) & 0xffff) % (8 * len)` for j in 4·index…4·index+3.
@Suite struct BloomFilterTests {
    @Test(arguments: [
        ("02:00:00:00:01:00", 0, 1, [3, 7, 2, 6]),
        ("02:00:00:00:01:00", 0, 4, [11, 31, 2, 22]),
        ("02:00:00:00:01:00", 1, 4, [24, 12, 17, 5]),
        ("02:00:00:00:01:00", 2, 32, [172, 24, 133, 49]),
        ("02:00:00:00:01:00", 3, 254, [1135, 683, 1318, 418]),
        ("50:6f:9a:01:02:03", 0, 32, [37, 145, 12, 184]),
        ("50:6f:9a:01:02:03", 1, 254, [1430, 258, 1631, 11]),
        ("50:6f:9a:01:02:03", 2, 4, [2, 22, 11, 31]),
        ("50:6f:9a:01:02:03", 3, 1, [1, 5, 0, 4]),
        ("aa:bb:cc:dd:ee:ff", 0, 254, [1806, 90, 1543, 403]),
        ("aa:bb:cc:dd:ee:ff", 1, 32, [45, 153, 4, 176]),
        ("aa:bb:cc:dd:ee:ff", 2, 1, [1, 5, 0, 4]),
        ("aa:bb:cc:dd:ee:ff", 3, 4, [10, 30, 3, 23]),
    ])
    func bitPositionsMatchTheIndependentComputation(address: String, index: Int, length: Int, expected: [Int]) {
        #expect(BloomFilter.bitPositions(for: mac(address), index: UInt8(index), bitCount: length * 8) == expected)
    }

    @Test func crc32MatchesZlib() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    }

    @Test func filterBytesMatchTheIndependentComputation() throws {
        let a = try BloomFilter(index: 0, length: 4, addresses: [mac("02:00:00:00:01:00"), mac("aa:bb:cc:dd:ee:ff")])
        #expect(hexString(a.bits) == "0c0cc0c0")
        let b = try BloomFilter(
            index: 2, length: 32,
            addresses: [mac("02:00:00:00:01:00"), mac("50:6f:9a:01:02:03"), mac("aa:bb:cc:dd:ee:ff")])
        #expect(hexString(b.bits) == "0000000100000200040000020008010020000000001000001000008000204000")
        #expect(
            hexString(try BloomFilter(index: 1, length: 8, addresses: [mac("50:6f:9a:01:02:03")]).bits)
                == "0400008000084000")
        #expect(
            hexString(try BloomFilter(index: 3, length: 16, addresses: [mac("50:6f:9a:01:02:03")]).bits)
                == "00000000000000000010020020000001")
    }

    @Test func insertedAddressesAreAlwaysFound() throws {
        let members = (0..<8).map { MACAddress(0x02, 0, 0, 0, 1, UInt8($0)) }
        for index in UInt8(0)...3 {
            let filter = try BloomFilter(index: index, length: 32, addresses: members)
            for m in members { #expect(filter.mightContain(m)) }
        }
        let empty = try BloomFilter(index: 0, length: 8)
        #expect(!empty.mightContain(members[0]))
    }

    @Test func rejectsBadIndexAndLength() {
        #expect(throws: NANWireError.self) { _ = try BloomFilter(index: 4, length: 4) }
        #expect(throws: NANWireError.self) { _ = try BloomFilter(index: 0, length: 0) }
        #expect(throws: NANWireError.self) { _ = try BloomFilter(index: 0, length: 255) }
    }
}

@Suite struct ServiceResponseFilterTests {
    let me = mac("02:00:00:00:01:00")
    let other = mac("02:00:00:00:02:00")

    @Test func includeListAnswersOnlyListedDevices() {
        let srf = ServiceResponseFilter(include: true, addressSet: .addresses([me]))
        #expect(srf.shouldRespond(me))
        #expect(!srf.shouldRespond(other))
    }

    @Test func excludeListSilencesListedDevices() {
        let srf = ServiceResponseFilter(include: false, addressSet: .addresses([me]))
        #expect(!srf.shouldRespond(me))
        #expect(srf.shouldRespond(other))
    }

    @Test func bloomIncludeAndExcludeForEveryIndex() throws {
        for index in UInt8(0)...3 {
            let bf = try BloomFilter(index: index, length: 16, addresses: [me])
            let include = ServiceResponseFilter(include: true, addressSet: .bloomFilter(bf))
            let exclude = ServiceResponseFilter(include: false, addressSet: .bloomFilter(bf))
            #expect(include.shouldRespond(me))
            #expect(!exclude.shouldRespond(me))
        }
    }

    @Test func bloomSRFWireFormCarriesIndexInControlBits() throws {
        let bf = try BloomFilter(index: 0, length: 4, addresses: [me, mac("aa:bb:cc:dd:ee:ff")])
        let sda = ServiceDescriptorAttribute(
            serviceID: ServiceID(1, 2, 3, 4, 5, 6), instanceID: 1, controlType: .subscribe,
            serviceResponseFilter: ServiceResponseFilter(include: true, addressSet: .bloomFilter(bf)))
        let bytes = hex("03 0f 00 01 02 03 04 05 06 01 00 09 | 05 03 0c 0c c0 c0")
        #expect(try sda.encoded() == bytes)
        #expect(try ServiceDescriptorAttribute(decoding: bytes) == sda)
        let idx3 = try BloomFilter(index: 3, length: 4, addresses: [me])
        let sda3 = ServiceDescriptorAttribute(
            serviceID: ServiceID(1, 2, 3, 4, 5, 6), instanceID: 1, controlType: .subscribe,
            serviceResponseFilter: ServiceResponseFilter(include: false, addressSet: .bloomFilter(idx3)))
        #expect(try sda3.encoded()[13] == 0x0d)
    }

    @Test func emptyBloomFilterIsRejected() {
        expectError(ServiceDescriptorAttribute.self, hex("03 0b 00 01 02 03 04 05 06 01 00 09 01 03"), .outOfRange)
    }
}

@Suite struct BloomFilterEdgeTests {
    @Test func zeroBitCountGivesNoPositionsInsteadOfTrapping() {
        #expect(BloomFilter.bitPositions(for: .broadcast, index: 0, bitCount: 0).isEmpty)
    }
}
