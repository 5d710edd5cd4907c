package imcodec.javatestee;

/**
 * An input rejected with a stable code (Sources/IMCodec/IMCodec.docc/ErrorCodes.md) and a path
 * (Sources/IMCodec/IMCodec.docc/Payloads.md, "Paths"); answered as the protocol's {@code failure}.
 */
final class Failure extends RuntimeException {
    final String code;
    final String path;

    Failure(String code, String path, String reason) {
        super(reason, null, false, false);
        this.code = code;
        this.path = path;
    }

    /** A frame error: always at the root. */
    static Failure frame(String code, String reason) {
        return new Failure(code, "", reason);
    }
}
