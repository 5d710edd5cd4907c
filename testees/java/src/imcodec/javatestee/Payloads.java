package imcodec.javatestee;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;

/** Payloads: the rules' scan, then protobuf-java parses, merges and re-encodes. */
final class Payloads {
    /**
     * Whether the testee keeps protobuf-java's own recursion limits (100 nested messages in
     * {@code CodedInputStream} and in {@code JsonFormat}'s parser) instead of raising them to the
     * request's depth limit: set by {@code IMCODEC_JAVA_RECURSION_LIMITS=protobuf-java}, so that a
     * differential run can show what the library out of the box refuses (testees/java/README.md).
     */
    static final boolean PROTOBUF_JAVA_RECURSION_LIMITS =
            "protobuf-java".equals(System.getenv("IMCODEC_JAVA_RECURSION_LIMITS"));

    private Payloads() {}

    /**
     * Decodes a payload of a kind with the limits.
     *
     * @throws Failure the first rule of Payloads.md the bytes break
     * @throws BadRequest an unknown kind, or protobuf-java refusing what the scan accepted (a testee bug)
     */
    static Message decode(int kind, byte[] payload, DecodingLimits limits) {
        Message prototype = Schema.prototype(kind);
        PayloadScan.check(prototype.getDescriptorForType(), payload, limits);
        CodedInputStream input = CodedInputStream.newInstance(payload);
        // protobuf-java stops at 100 nested messages and groups; a merger layer is 3 (Message, Elem,
        // MergerElem), so the default maxDepth of 100 layers needs about 300. The scan has bounded the
        // nesting by the request's limits already.
        if (!PROTOBUF_JAVA_RECURSION_LIMITS) input.setRecursionLimit(Integer.MAX_VALUE);
        try {
            return prototype.getParserForType().parseFrom(input);
        } catch (InvalidProtocolBufferException error) {
            throw new BadRequest("protobuf-java refused a payload the scan accepted: " + error.getMessage());
        }
    }

    /** The canonical encoding of a decoded payload, as protobuf-java writes it. */
    static byte[] canonical(int kind, byte[] payload, DecodingLimits limits) {
        return decode(kind, payload, limits).toByteArray();
    }
}
