import Foundation
import NANSystem
import Testing

/// `NetlinkRecording` reads back what `WAWARE_NL_RECORD` wrote, through the public API only.
@Suite struct NetlinkRecordingTests {
    static func recording(_ name: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)")
        return [UInt8](try Data(contentsOf: url))
    }

    @Test func receivedFrameEventGivesTheWholeFrameWithItsChannel() throws {
        let frames = try NetlinkRecording.receivedFrames(in: try Self.recording("frame-received-sdf-event.nlmsgs"))
        #expect(frames.count == 1)
        let frame = try #require(frames.first)
        #expect(frame.wdev != nil)
        #expect(frame.frequency == Frequency(megahertz: 2437))
        #expect(frame.signalDBM == -50)
        #expect(Array(frame.bytes.prefix(2)) == [0xd0, 0x00])
        #expect(Array(frame.bytes[24..<30]) == [0x04, 0x09, 0x50, 0x6f, 0x9a, 0x13])
    }

    @Test(arguments: ["frame-send-reply.nlmsgs", "frame-tx-status-event.nlmsgs", "nan-cluster-joined-event.nlmsgs"])
    func repliesAndOtherEventsAreSkipped(name: String) throws {
        #expect(try NetlinkRecording.receivedFrames(in: try Self.recording(name)).isEmpty)
    }

    @Test func recordingsConcatenateInOrder() throws {
        let event = try Self.recording("frame-received-sdf-event.nlmsgs")
        let joined = event + (try Self.recording("frame-send-reply.nlmsgs")) + event
        #expect(try NetlinkRecording.receivedFrames(in: joined).count == 2)
    }

    @Test func cutOffMessageIsAnError() throws {
        let event = try Self.recording("frame-received-sdf-event.nlmsgs")
        #expect(throws: NetlinkError.self) { try NetlinkRecording.receivedFrames(in: Array(event.dropLast(8))) }
    }
}
