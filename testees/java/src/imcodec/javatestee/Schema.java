package imcodec.javatestee;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import imcodec.v1.EventOuterClass;
import imcodec.v1.Model;

/** What the rules need to know about the schema beyond its descriptors: payload kinds, count limits, layers. */
final class Schema {
    private Schema() {}

    /** The default instance of the message a payload kind (1 message, 2 batch, 3 event) holds. */
    static Message prototype(int kind) {
        return switch (kind) {
            case 1 -> Model.Message.getDefaultInstance();
            case 2 -> Model.MessageBatch.getDefaultInstance();
            case 3 -> EventOuterClass.Event.getDefaultInstance();
            default -> throw new BadRequest("payload kind " + kind + " is not message, batch or event");
        };
    }

    /** Whether a payload kind names a payload type. */
    static boolean isKind(int kind) {
        return kind >= 1 && kind <= 3;
    }

    /** A count limit and the code for crossing it. */
    record CountLimit(String code, long value) {}

    /**
     * The limit on a repeated field's entries: {@code Message.elems} is {@code maxElems},
     * {@code MessageBatch.messages} is {@code maxBatchMessages}, every other one {@code maxRepeated}.
     */
    static CountLimit countLimit(FieldDescriptor field, DecodingLimits limits) {
        Descriptor holder = field.getContainingType();
        if (holder == Model.Message.getDescriptor()
                && field.getNumber() == Model.Message.ELEMS_FIELD_NUMBER) {
            return new CountLimit("limit.elems", limits.maxElems);
        }
        if (holder == Model.MessageBatch.getDescriptor()
                && field.getNumber() == Model.MessageBatch.MESSAGES_FIELD_NUMBER) {
            return new CountLimit("limit.batch-messages", limits.maxBatchMessages);
        }
        return new CountLimit("limit.repeated", limits.maxRepeated);
    }

    /** Whether entering this field goes one merger layer deeper: {@code MergerElem.messages}. */
    static boolean isMergerMessages(FieldDescriptor field) {
        return field.getContainingType() == Model.MergerElem.getDescriptor()
                && field.getNumber() == Model.MergerElem.MESSAGES_FIELD_NUMBER;
    }

    /**
     * A path with one more component, in the syntax of payloads.md ("Paths"); a member written with the empty
     * name adds nothing.
     */
    static String join(String path, String component) {
        return path.isEmpty() ? component : component.isEmpty() ? path : path + "." + component;
    }
}
