// TEMPORARY until NANSystem's API lands (merge of branch sys). Not to be committed.
struct NetlinkError: Error { struct Code: Equatable { static let familyNotFound = Code(), permissionDenied = Code(), hwsimNotLoaded = Code(), hwsimWithoutNAN = Code(), alreadyRunning = Code(), noSuchDevice = Code() }; var code: Code; var kernelMessage: String?; var call: String; var description: String { call } }
enum AdapterDirectory { static func reports() async throws -> [AdapterReport] { throw NetlinkError(code: .familyNotFound, call: "x") } }
enum ClusterSession { static func run(_ c: ClusterStartCommand, output: Output) async throws {}; static func stop(_ c: ClusterStopCommand, output: Output) async throws {} }
enum EventWatch { static func run(_ c: EventsCommand, output: Output) async throws {} }
enum Simulator { static func add(_ c: SimAddCommand, output: Output) async throws {}; static func list(_ c: SimListCommand, output: Output) async throws {}; static func remove(_ c: SimRemoveCommand, output: Output) async throws {} }
