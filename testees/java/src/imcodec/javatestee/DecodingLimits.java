package imcodec.javatestee;

import com.google.protobuf.Descriptors.FieldDescriptor;
import imcodec.constraints.v1.Constraints;
import imcodec.testee.v1.Testee;

/**
 * The decoding limits of one request. Each field the request leaves at 0 takes its default, which is read
 * from the schema: the constraint option on each field of the testee protocol's {@code Limits}
 * (Schemas/imcodec/constraints/v1/constraints.proto, docs/spec/limits.md, "Decoding limits"), never written here.
 */
final class DecodingLimits {
    final long maxFrameBytes;
    final long maxInflatedBytes;
    final long maxInflateRatio;
    final long maxDepth;
    final long maxElems;
    final long maxRepeated;
    final long maxBatchMessages;
    final long maxDocumentBytes;
    /** The most problems a REST validation reports before one {@code limit.problems} finding that counts them. */
    final long maxProblems;

    private static final Testee.Limits DEFAULTS = declaredDefaults();

    private DecodingLimits(Testee.Limits given) {
        maxFrameBytes = pick(given.getMaxFrameBytes(), DEFAULTS.getMaxFrameBytes());
        maxInflatedBytes = pick(given.getMaxInflatedBytes(), DEFAULTS.getMaxInflatedBytes());
        maxInflateRatio = pick(given.getMaxInflateRatio(), DEFAULTS.getMaxInflateRatio());
        maxDepth = pick(given.getMaxDepth(), DEFAULTS.getMaxDepth());
        maxElems = pick(given.getMaxElems(), DEFAULTS.getMaxElems());
        maxRepeated = pick(given.getMaxRepeated(), DEFAULTS.getMaxRepeated());
        maxBatchMessages = pick(given.getMaxBatchMessages(), DEFAULTS.getMaxBatchMessages());
        maxDocumentBytes = pick(given.getMaxDocumentBytes(), DEFAULTS.getMaxDocumentBytes());
        maxProblems = pick(given.getMaxProblems(), DEFAULTS.getMaxProblems());
    }

    /** The limits of a request: its non-zero fields, the declared defaults for the others. */
    static DecodingLimits of(Testee.Request request) {
        return new DecodingLimits(request.getLimits());
    }

    /** The JSON nesting limit: arrays and objects nest at most {@code maxDepth × 8 + 64} deep. */
    long jsonNesting() {
        return maxDepth * 8 + 64;
    }

    private static long pick(int given, int fallback) {
        return Integer.toUnsignedLong(given != 0 ? given : fallback);
    }

    /** The sdk-guide value each field of {@code Limits} declares (both profiles declare the same). */
    private static Testee.Limits declaredDefaults() {
        Testee.Limits.Builder builder = Testee.Limits.newBuilder();
        for (FieldDescriptor field : Testee.Limits.getDescriptor().getFields()) {
            var options = field.getOptions();
            if (!options.hasExtension(Constraints.field)) {
                throw new IllegalStateException("Limits." + field.getName() + " declares no default");
            }
            long value = options.getExtension(Constraints.field).getLimit(0).getSdkGuide().getNumber();
            builder.setField(field, (int) value);
        }
        return builder.build();
    }
}
