package imcodec.javatestee;

/**
 * An input rejected with a stable code (docs/spec/error-and-finding-codes.md) and a path
 * (docs/spec/payloads.md, "Paths"); answered as the protocol's {@code failure}.
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
