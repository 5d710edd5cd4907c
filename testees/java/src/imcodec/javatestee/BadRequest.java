package imcodec.javatestee;

/** A request that cannot be carried out as asked; answered as the protocol's {@code runtime_error}. */
final class BadRequest extends RuntimeException {
    BadRequest(String message) {
        super(message, null, false, false);
    }
}
