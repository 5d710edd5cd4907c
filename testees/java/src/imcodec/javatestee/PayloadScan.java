package imcodec.javatestee;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.UnsafeByteOperations;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * The rules of docs/spec/payloads.md applied to the wire bytes, in the order the documents
 * give, before protobuf-java sees them: protobuf-java says that a payload is bad, never which rule it breaks or
 * where. The walk is driven by the message descriptors and keeps an explicit stack of open messages and unknown
 * groups, so no input makes it recurse.
 */
final class PayloadScan {
    private final DecodingLimits limits;
    private final byte[] data;
    private int pos;

    /** What the scan remembers of one message value: entries per repeated field, and singular message fields. */
    private static final class Node {
        final Descriptor descriptor;
        final Map<Integer, Integer> counts = new HashMap<>();
        final Map<Integer, Node> children = new HashMap<>();

        Node(Descriptor descriptor) {
            this.descriptor = descriptor;
        }
    }

    /** One open message (node set) or unknown group (node null). */
    private static final class Open {
        final Node node;
        final int end;
        final int group;
        final long layer;
        final String path;

        Open(Node node, int end, int group, long layer, String path) {
            this.node = node;
            this.end = end;
            this.group = group;
            this.layer = layer;
            this.path = path;
        }
    }

    private PayloadScan(byte[] data, DecodingLimits limits) {
        this.data = data;
        this.limits = limits;
    }

    /** Throws the {@link Failure} of the first rule the bytes break, read as a {@code descriptor}. */
    static void check(Descriptor descriptor, byte[] data, DecodingLimits limits) {
        new PayloadScan(data, limits).run(descriptor);
    }

    private void run(Descriptor descriptor) {
        ArrayDeque<Open> stack = new ArrayDeque<>();
        stack.push(new Open(new Node(descriptor), data.length, 0, 0, ""));
        while (!stack.isEmpty()) {
            Open open = stack.peek();
            if (open.node != null && pos == open.end) {
                stack.pop();
                continue;
            }
            long tag = readVarint(open.end, 5);
            if (tag == TRUNCATED) {
                throw new Failure("payload.truncated", open.path, "the payload ends inside a tag or a group");
            }
            if (tag == TOO_LONG) {
                throw new Failure("payload.tag", open.path, "a tag is longer than 5 bytes");
            }
            long number = tag >>> 3;
            int wireType = (int) (tag & 7);
            if (number == 0 || number >= 1L << 29 || wireType == 6 || wireType == 7) {
                throw new Failure("payload.tag", open.path, "field number " + number + ", wire type " + wireType);
            }
            if (wireType == 4) {
                if (open.node == null && open.group == number) {
                    stack.pop();
                    continue;
                }
                throw new Failure("payload.group", open.path, "an end-group tag that closes no open group");
            }
            FieldDescriptor field = open.node == null ? null : open.node.descriptor.findFieldByNumber((int) number);
            if (field != null && field.getLiteType().getWireType() == wireType) {
                known(stack, open, field);
            } else {
                unknown(stack, open, wireType, (int) number);
            }
        }
    }

    private static final long TRUNCATED = -1;
    private static final long TOO_LONG = -2;

    /** A tag: a varint of at most {@code maxBytes} (5) bytes ending before {@code end}, so never negative. */
    private long readVarint(int end, int maxBytes) {
        long value = 0;
        for (int i = 0; i < maxBytes; i++) {
            if (pos + i >= end) {
                return TRUNCATED;
            }
            int b = data[pos + i] & 0xFF;
            value |= (long) (b & 0x7F) << (7 * i);
            if (b < 0x80) {
                pos += i + 1;
                return value;
            }
        }
        return TOO_LONG;
    }

    /** Skips a varint value: at most 10 bytes, whatever bits the tenth holds. */
    private void skipVarint(int end, String path) {
        for (int i = 0; i < 10; i++) {
            if (pos + i >= end) {
                throw new Failure("payload.truncated", path, "the payload ends inside a varint");
            }
            if ((data[pos + i] & 0x80) == 0) {
                pos += i + 1;
                return;
            }
        }
        throw new Failure("payload.varint", path, "a varint is longer than 10 bytes");
    }

    private void skipFixed(int width, int end, String path) {
        if (end - pos < width) {
            throw new Failure("payload.truncated", path, "the payload ends inside a fixed-width value");
        }
        pos += width;
    }

    /** A length, judged against 2^31 - 1 and then against the enclosing bytes. */
    private int readLength(int end, String path) {
        long length = 0;
        int i = 0;
        while (true) {
            if (i == 10) {
                throw new Failure("payload.varint", path, "a length is longer than 10 bytes");
            }
            if (pos + i >= end) {
                throw new Failure("payload.truncated", path, "the payload ends inside a length");
            }
            int b = data[pos + i] & 0xFF;
            length |= (long) (b & 0x7F) << (7 * i);
            i++;
            if (b < 0x80) {
                break;
            }
        }
        pos += i;
        if (length < 0 || length >= 0x7FFFFFFFL) {
            throw new Failure("payload.length", path, "a length of " + Long.toUnsignedString(length)
                    + " is 2^31 - 1 or more");
        }
        if (length > end - pos) {
            throw new Failure("payload.truncated", path, "a length runs past the end of the enclosing bytes");
        }
        return (int) length;
    }

    private void unknown(ArrayDeque<Open> stack, Open open, int wireType, int number) {
        switch (wireType) {
            case 0 -> skipVarint(open.end, open.path);
            case 1 -> skipFixed(8, open.end, open.path);
            case 5 -> skipFixed(4, open.end, open.path);
            case 2 -> {
                int length = readLength(open.end, open.path);
                pos += length;
            }
            default -> {
                // Wire type 3: an unknown group, one layer deeper.
                long layer = open.layer + 1;
                if (layer > limits.maxDepth) {
                    throw new Failure("limit.depth", open.path, "nesting reaches layer " + layer);
                }
                stack.push(new Open(null, open.end, number, layer, open.path));
            }
        }
    }

    private void known(ArrayDeque<Open> stack, Open open, FieldDescriptor field) {
        Node node = open.node;
        String path;
        if (field.isRepeated()) {
            // The limit is judged at the first entry past it, before any of its bytes.
            int index = node.counts.getOrDefault(field.getNumber(), 0);
            Schema.CountLimit limit = Schema.countLimit(field, limits);
            path = Schema.join(open.path, field.getJsonName() + "[" + index + "]");
            if (index >= limit.value()) {
                throw new Failure(limit.code(), path, "more than " + limit.value() + " entries");
            }
            node.counts.put(field.getNumber(), index + 1);
        } else {
            path = Schema.join(open.path, field.getJsonName());
        }
        switch (field.getLiteType().getWireType()) {
            case 0 -> {
                skipVarint(open.end, path);
                return;
            }
            case 1 -> {
                skipFixed(8, open.end, path);
                return;
            }
            case 5 -> {
                skipFixed(4, open.end, path);
                return;
            }
            default -> {
            }
        }
        int length = readLength(open.end, path);
        int start = pos;
        if (field.getType() == FieldDescriptor.Type.STRING
                && !UnsafeByteOperations.unsafeWrap(data, start, length).isValidUtf8()) {
            throw new Failure("payload.utf8", path, "a string holds bytes that are not UTF-8");
        }
        if (field.getContainingOneof() != null) {
            // Setting a oneof member drops the others; the same member merges.
            for (FieldDescriptor other : field.getContainingOneof().getFields()) {
                if (other.getNumber() != field.getNumber()) {
                    node.children.remove(other.getNumber());
                }
            }
        }
        if (field.getType() != FieldDescriptor.Type.MESSAGE) {
            pos = start + length;
            return;
        }
        long layer = open.layer + (Schema.isMergerMessages(field) ? 1 : 0);
        if (layer > limits.maxDepth) {
            throw new Failure("limit.depth", path, "nesting reaches layer " + layer);
        }
        Node child;
        if (field.isRepeated()) {
            child = new Node(field.getMessageType());
        } else {
            child = node.children.computeIfAbsent(field.getNumber(), n -> new Node(field.getMessageType()));
        }
        stack.push(new Open(child, start + length, 0, layer, path));
    }
}
