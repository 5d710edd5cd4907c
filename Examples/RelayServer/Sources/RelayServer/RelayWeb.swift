import IMCodecNIO
import NIOCore
import NIOHTTP1

#if canImport(FoundationEssentials)
    // Not the whole of Foundation: its internationalization and ICU cost
    // the relay about 10 MB of resident memory, and none of it is used.
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where the relay's HTTP listener takes the files it serves: the chat page,
/// and the repository's JavaScript implementation of the format that the
/// page runs on, read once when the server starts (no file is read per
/// request, and no other path is served).
///
/// | path | file |
/// |---|---|
/// | `/`, `/index.html`, `/<name>` | `pageDirectory/index.html` and the page's other `.html`, `.js`, `.css` files |
/// | `/js/src/<name>.js`, `/js/generated/<name>.js` | `jsDirectory/src/`, `jsDirectory/generated/` |
/// | `/pako.esm.mjs` | ``pakoFile``, when it exists (Debian's `node-pako`), for deflate frames that name a dictionary |
/// | `/metrics` | ``RelayConfiguration/metricsExposition`` |
public struct RelayWebFiles: Sendable {
    /// The chat page's folder; `Examples/RelayServer/Web` of the checkout
    /// the relay was built from by default.
    public var pageDirectory: String
    /// The JavaScript implementation's folder; the repository's `js/` by
    /// default.
    public var jsDirectory: String
    /// pako's ES module, served when the file exists.
    public var pakoFile = "/usr/share/nodejs/pako/dist/pako.esm.mjs"

    /// Creates the default locations: the checkout the relay was built from.
    public init() {
        // Sources/RelayServer/RelayWeb.swift -> Examples/RelayServer -> the repository.
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        pageDirectory = example.appendingPathComponent("Web").path
        jsDirectory = example.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("js").path
    }
}

/// The files of a ``RelayWebFiles``, read into memory, by request path.
struct RelayWebContent: Sendable {
    struct File: Sendable {
        var contentType: String
        var body: ByteBuffer
    }

    var files: [String: File] = [:]

    /// No files: the metrics listener's.
    init() {}

    /// Reads the files.
    ///
    /// - Throws: When the page's folder or the JavaScript folders cannot
    ///   be read.
    init(_ web: RelayWebFiles) throws {
        try add(directory: web.pageDirectory, as: "/")
        try add(directory: web.jsDirectory + "/src", as: "/js/src/")
        try add(directory: web.jsDirectory + "/generated", as: "/js/generated/")
        if let pako = FileManager.default.contents(atPath: web.pakoFile) {
            files["/pako.esm.mjs"] = File(contentType: Self.type(of: "x.mjs"), body: ByteBuffer(bytes: pako))
        }
        files["/"] = files["/index.html"]
    }

    private mutating func add(directory: String, as prefix: String) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: directory).sorted() {
            let type = Self.type(of: name)
            guard !type.isEmpty, let data = FileManager.default.contents(atPath: directory + "/" + name) else {
                continue
            }
            files[prefix + name] = File(contentType: type, body: ByteBuffer(bytes: data))
        }
    }

    private static func type(of name: String) -> String {
        switch name.split(separator: ".").last {
        case "html": "text/html; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        default: ""
        }
    }
}

/// Answers the plain HTTP requests of the web listener: the files, the
/// metrics, 404 and 405. Removed once a request upgrades to WebSocket.
final class RelayHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let content: RelayWebContent
    private let metrics: (@Sendable () -> String)?
    private var request: HTTPRequestHead?
    private let hub: RelayHub

    init(content: RelayWebContent, metrics: (@Sendable () -> String)?, hub: RelayHub) {
        self.content = content
        self.metrics = metrics
        self.hub = hub
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            request = head
        case .body:
            // No request here has a body worth reading; its bytes are dropped.
            break
        case .end:
            guard let head = request else { return }
            request = nil
            respond(to: head, context: context)
        }
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let path = String(head.uri.prefix { $0 != "?" })
        var status = HTTPResponseStatus.ok
        var type = "text/plain; charset=utf-8"
        var body: ByteBuffer
        if head.method != .GET && head.method != .HEAD {
            status = .methodNotAllowed
            body = ByteBuffer(string: "only GET and HEAD\n")
        } else if let file = content.files[path] {
            type = file.contentType
            body = file.body
        } else if path == "/metrics", let metrics {
            type = "text/plain; version=0.0.4; charset=utf-8"
            body = ByteBuffer(string: metrics())
        } else {
            status = .notFound
            body = ByteBuffer(string: "not found\n")
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: type)
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "Connection", value: head.isKeepAlive ? "keep-alive" : "close")
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))),
            promise: nil)
        if head.method != .HEAD { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
        let keepAlive = head.isKeepAlive
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            if !keepAlive { channel.close(promise: nil) }
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent {
            context.close(promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if let error = error as? IMCodecConnectionError {
            let channel = context.channel
            let reason = error.code.rawValue
            hub.httpFailed(channel, reason: reason)
        }
        context.close(promise: nil)
    }
}
