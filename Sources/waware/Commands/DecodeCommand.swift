import NANWire
@_spi(Tools) import WiFiAware

/// `waware decode`: prints a NAN frame (SDF or NAF) field by field, from hex, a file, standard input or
/// frames recorded with `WAWARE_NL_RECORD`.
struct DecodeCommand: Command {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode a NAN frame (SDF or NAF) and print its attributes.",
        discussion: [
            "The frame is a whole 802.11 management frame as nl80211 delivers it (starting with the frame control, "
                + "d0 00) or just its action body (starting with the category, 04 09 50 6f 9a). Give it as hex on the "
                + "command line, with --file (raw bytes or hex text), or '-' for standard input.",
            "--nlmsgs decodes every frame nl80211 delivered in a recording made with WAWARE_NL_RECORD=<dir> (a "
                + ".nlmsg file, a .nlmsgs fixture, or the folder itself); other recorded messages are skipped.",
            "Service IDs are hashes: name the services you expect with --service to see their names. A frame the "
                + "codec rejects prints 'waware: malformed frame: <what and where>' and exits 16.",
        ],
        examples: [
            Example(
                "waware decode 0409506f9a13030e0092fc3befbd7b0101120470696e67",
                "Decode an SDF action body given as hex (a follow-up saying 'ping')."),
            Example(
                "waware decode --service _chat._tcp --file sdf.bin",
                "Decode a frame file, naming _chat._tcp's service ID."),
            Example(
                "waware decode --nlmsgs /tmp/rec --json",
                "Every received frame of a recording, one JSON object per line."),
        ]
    )

    static let arguments: [ArgumentSpec] = [
        Self.framePositional.spec,
        Self.fileOption.spec,
        Self.nlmsgsOption.spec,
        Self.serviceOption.spec,
        .json,
    ]

    /// Where the frame comes from.
    enum Source: Sendable, Equatable {
        /// Bytes given on the command line.
        case bytes([UInt8])
        /// Standard input.
        case standardInput
        /// A file with one frame.
        case file(String)
        /// A recording (file or folder).
        case recording(String)
    }

    /// Where the frame comes from.
    var source: Source
    /// Names for the service IDs of the hinted services.
    var serviceNames: [ServiceID: String]
    /// Whether to print JSON.
    var json: Bool

    init(from values: ParsedValues) throws {
        var sources: [Source] = []
        if let frame = values.positional(Self.framePositional) {
            if frame == "-" {
                sources.append(.standardInput)
            } else if let bytes = DecodeInput.bytes(hex: frame) {
                sources.append(.bytes(bytes))
            } else {
                throw ValidationError(
                    "'\(frame.prefix(40))' is not hex: expected pairs of hex digits, e.g. 'd0 00 3a 01 …'")
            }
        }
        if let path = values.option(Self.fileOption) { sources.append(.file(path)) }
        if let path = values.option(Self.nlmsgsOption) { sources.append(.recording(path)) }
        guard sources.count == 1, let source = sources.first else {
            throw ValidationError(
                sources.isEmpty
                    ? "give the frame as hex, '-' for standard input, --file or --nlmsgs"
                    : "give only one of: hex, '-', --file, --nlmsgs")
        }
        self.source = source
        var names: [ServiceID: String] = [:]
        for name in (values.option(Self.serviceOption) ?? "").split(separator: ",") {
            do {
                names[try ServiceID.hashing(String(name))] = String(name)
            } catch {
                throw CommandFailure("cannot hash the service name '\(name)': \(error)")
            }
        }
        serviceNames = names
        json = values.flag(FlagKey.json)
    }

    func run(_ output: Output) async throws {
        let bytes: [UInt8]
        switch source {
        case .bytes(let given): bytes = given
        case .standardInput:
            bytes = try DecodeInput.bytes(contents: try DecodeInput.readStandardInput(), source: "standard input")
        case .file(let path): bytes = try DecodeInput.bytes(contents: try DecodeInput.read(path), source: "'\(path)'")
        case .recording(let path):
            try decodeRecording(path, output)
            return
        }
        let report = try DecodeInput.report(bytes, serviceNames: serviceNames)
        try output.write(report, json: json, lines: report.lines)
    }

    /// Prints every received frame of the recording; fails (exit 16) after printing the others if any
    /// frame is malformed, naming the first.
    private func decodeRecording(_ path: String, _ output: Output) throws {
        let frames = try DecodeInput.recordedFrames(in: try DecodeInput.recordingFiles(path))
        guard !frames.isEmpty else { throw CommandFailure("no received frames in the recording '\(path)'") }
        var failures: [(file: String, failure: CommandFailure)] = []
        for (number, entry) in frames.enumerated() {
            let file = entry.file.split(separator: "/").last.map(String.init) ?? entry.file
            do {
                let report = try DecodeInput.report(entry.frame.bytes, serviceNames: serviceNames)
                if json {
                    try output.writeJSON(
                        RecordedFrameReport(
                            file: file, frequency: entry.frame.frequency, signalDBM: entry.frame.signalDBM,
                            hex: FrameReport.hex(entry.frame.bytes), frame: report))
                } else {
                    let signal = entry.frame.signalDBM.map { ", \($0) dBm" } ?? ""
                    output.write(
                        "frame \(number + 1) (\(file), \(entry.frame.frequency) MHz\(signal)): "
                            + (report.lines.first ?? ""))
                    for line in report.lines.dropFirst() { output.write(line) }
                }
            } catch let failure as CommandFailure {
                failures.append((file, failure))
            }
        }
        if let first = failures.first {
            throw CommandFailure(
                "\(first.failure.message) (in \(first.file); \(failures.count) of \(frames.count) frames malformed)",
                code: .malformedFrame)
        }
    }
}

/// One frame of a recording as `decode --nlmsgs --json` prints it.
private struct RecordedFrameReport: Encodable {
    var file: String
    var frequency: Int
    var signalDBM: Int?
    /// The whole management frame, so a recording's frames can be saved one by one.
    var hex: String
    var frame: FrameReport
}

/// The typed keys of the arguments `DecodeCommand` declares: listed in `arguments` by their `spec`, read with them.
extension DecodeCommand {
    static let framePositional = PositionalKey(
        "frame", optional: true, help: "The frame in hex (spaces and colons allowed), or '-' to read standard input.")
    static let fileOption = OptionKey(
        "file", value: "path", help: "Read the frame from a file (raw bytes or hex text).")
    static let nlmsgsOption = OptionKey(
        "nlmsgs", value: "path", help: "Decode the received frames of a WAWARE_NL_RECORD recording (file or folder).")
    static let serviceOption = OptionKey(
        "service", value: "names", help: "Service names to recognise, comma-separated (_chat._tcp,_print._tcp).")
}
