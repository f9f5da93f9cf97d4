import Testing

@_spi(Tools) import WiFiAware
@testable import waware

@Test func bandListsAcceptTheUsualSpellings() {
    #expect(ArgumentValues.bands("2.4,5") == [.ghz2_4, .ghz5])
    #expect(ArgumentValues.bands("2.4GHz,5GHz") == [.ghz2_4, .ghz5])
    #expect(ArgumentValues.bands("2g, 5g") == [.ghz2_4, .ghz5])
    #expect(ArgumentValues.bands("2.4") == [.ghz2_4])
    #expect(ArgumentValues.bands("2.4,6") == [.ghz2_4, .ghz6])
}

@Test func bandListsRejectUnknownOrEmptyBands() {
    #expect(ArgumentValues.bands("") == nil)
    #expect(ArgumentValues.bands("2.4,") == nil)
    #expect(ArgumentValues.bands("60") == nil)
}

@Test func masterPreferenceRangeIsOneTo255() {
    #expect(ArgumentValues.masterPreference("1") == 1)
    #expect(ArgumentValues.masterPreference("255") == 255)
    #expect(ArgumentValues.masterPreference("0") == nil)
    #expect(ArgumentValues.masterPreference("256") == nil)
    #expect(ArgumentValues.masterPreference("ten") == nil)
}

@Test func macBytesNeedOneOrTwoHexDigitsPerByte() {
    #expect(ArgumentValues.macBytes("2:0:a:b:c:d") == [2, 0, 10, 11, 12, 13])
    #expect(ArgumentValues.macBytes("02:00:00:00:00:1") == [2, 0, 0, 0, 0, 1])
    #expect(ArgumentValues.macBytes("02::00") == nil)
    #expect(ArgumentValues.macBytes("020:00") == nil)
    #expect(ArgumentValues.macBytes("zz:00") == nil)
}
