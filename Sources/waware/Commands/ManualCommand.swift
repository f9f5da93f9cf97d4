/// `waware manual`: prints the `waware(1)` manual page (roff), generated from the command declarations.
struct ManualCommand: Command {
    static let configuration = CommandConfiguration(
        commandName: "manual",
        abstract: "Print the waware(1) manual page (roff) for man.",
        discussion: [
            "The page is generated from the same declarations as --help: every command, option, example and exit "
                + "status of this version."
        ],
        examples: [
            Example("waware manual > /usr/local/share/man/man1/waware.1", "Install the page; then 'man waware'."),
            Example("waware manual | man -l -", "Read it without installing."),
        ]
    )

    init(from values: ParsedValues) throws {}

    func run(_ output: Output) async throws {
        output.write(ManualPage.page(root: Waware.self))
    }
}
