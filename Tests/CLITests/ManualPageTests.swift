import Foundation
import Testing

@testable import waware

@Test func theManualHasASectionForEveryCommand() {
    let page = ManualPage.page(root: Waware.self)
    for entry in CommandTree.entries(from: Waware.self).dropFirst() {
        #expect(page.contains(".SS \"\(ManualPage.escaped(entry.pathText))\""), "\(entry.pathText)")
    }
}

@Test func theManualListsEveryExitCode() {
    let page = ManualPage.page(root: Waware.self)
    for documented in ExitCode.documented {
        #expect(page.contains(".B \(documented.code.rawValue)\n\(documented.name):"), "\(documented.name)")
    }
}

@Test func noTextLineOfTheManualIsTakenForARequest() {
    // A body line starting with '.' or '\'' would be read by roff as a request and vanish.
    let page = ManualPage.page(root: Waware.self)
    let requests: Set<Substring> = [".TH", ".SH", ".SS", ".PP", ".TP", ".B", ".I", ".BR", ".nf", ".fi", ".\\\""]
    for line in page.split(separator: "\n") where line.hasPrefix(".") || line.hasPrefix("'") {
        let request = line.split(separator: " ").first ?? line
        #expect(requests.contains(request), "\(line)")
    }
}

@Test func roffEscapingProtectsHyphensBackslashesAndLeadingDots() {
    #expect(ManualPage.escaped("--json") == "\\-\\-json")
    #expect(ManualPage.escaped("a\\b") == "a\\eb")
    #expect(ManualPage.escaped(".hidden") == "\\&.hidden")
}

@Test func groffFormatsTheManualWithoutWarnings() throws {
    let path = NSTemporaryDirectory() + "waware-\(UUID().uuidString).1"
    try ManualPage.page(root: Waware.self).write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/groff")
    process.arguments = ["-man", "-Tutf8", "-ww", "-z", path]
    let err = Pipe()
    process.standardError = err
    try process.run()
    let data = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(String(decoding: data, as: UTF8.self).isEmpty, "\(String(decoding: data, as: UTF8.self))")
}
