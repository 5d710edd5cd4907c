/// The directory of the repository, found from this file's path
/// (`Sources/IMCodecTestSupport/RepositoryRoot.swift`), for the tests that
/// read the repository's vectors, schemas, scripts and docs.
public let repositoryRoot: String = {
    var components = #filePath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    components.removeLast(3)
    return components.joined(separator: "/")
}()
