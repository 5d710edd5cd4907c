import ArgumentParser

/// `imcodec-devtools`: tools for maintaining the project's generated assets.
@main
struct DevToolsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imcodec-devtools",
        abstract: "Tools that make the project's generated assets.",
        subcommands: [TrainDictionaryCommand.self, WriteCorpusCommand.self, CheckRuleTableCommand.self]
    )
}
