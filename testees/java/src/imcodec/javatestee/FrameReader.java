package imcodec.javatestee;

import java.util.zip.CRC32;

/**
 * Reads frames with the checks of docs/spec/frame-format.md ("Checks a reader makes, in
 * order"), steps 1 to 6; a single-frame decoder adds step 7 and both decode the payload (step 8).
 */
final class FrameReader {
    private FrameReader() {}

    /** The bytes end inside a frame: {@code frame.truncated} for one frame, "wait for more" for a stream. */
    static final class NeedMore extends RuntimeException {
        NeedMore() {
            super(null, null, false, false);
        }
    }

    /** A frame read up to its checksum: its header fields, the payload bytes and the frame's length. */
    record Frame(int kind, int compression, long dictionaryId, byte[] payload, int length) {}

    /** Reads the frame at {@code data[offset...]}, checks 1 to 6. */
    static Frame read(byte[] data, int offset, DecodingLimits limits) {
        int available = data.length - offset;
        if (available < 2) {
            throw new NeedMore();
        }
        int version = data[offset] & 0xFF;
        if (version != 1) {
            throw Failure.frame("frame.version", "version " + version);
        }
        int flags = data[offset + 1] & 0xFF;
        int kind = flags & 3;
        int compression = (flags >> 2) & 3;
        boolean hasDictionary = (flags & 0x10) != 0;
        if (kind == 0) {
            throw Failure.frame("frame.kind", "kind 0");
        }
        if (compression == 3) {
            throw Failure.frame("frame.compression", "compression 3");
        }
        if ((flags >> 5) != 0) {
            throw Failure.frame("frame.reserved-bits", "a reserved flag bit is set");
        }
        int[] pos = {offset + 2};
        long dictionaryId = 0;
        byte[] dictionary = null;
        if (hasDictionary) {
            dictionaryId = headerVarint(data, pos);
            dictionary = Dictionaries.get(dictionaryId);
            if (compression == 0 || dictionary == null) {
                throw Failure.frame("frame.dictionary",
                        "dictionary " + dictionaryId + " with compression " + compression);
            }
        }
        long bodyLength = headerVarint(data, pos);
        long payloadLength = compression == 0 ? bodyLength : headerVarint(data, pos);
        if (data.length - pos[0] < 4) {
            throw new NeedMore();
        }
        int headerEnd = pos[0];
        long checksum = Integer.toUnsignedLong(readInt32LE(data, headerEnd));
        int bodyStart = headerEnd + 4;
        checkSizes(compression, bodyLength, payloadLength, limits);
        if (data.length - bodyStart < bodyLength) {
            throw new NeedMore();
        }
        if (payloadLength > Integer.MAX_VALUE - 8) {
            throw new BadRequest("a payload of " + payloadLength + " bytes is more than a Java array holds");
        }
        int bodyEnd = bodyStart + (int) bodyLength;
        byte[] payload = switch (compression) {
            case 1 -> Deflate.inflate(data, bodyStart, bodyEnd, (int) payloadLength, dictionary);
            case 2 -> ZstdBody.decode(data, bodyStart, bodyEnd, (int) payloadLength, dictionary);
            default -> java.util.Arrays.copyOfRange(data, bodyStart, bodyEnd);
        };
        CRC32 crc = new CRC32();
        crc.update(data, offset, headerEnd - offset);
        crc.update(payload);
        if (crc.getValue() != checksum) {
            throw Failure.frame("frame.checksum", "the CRC-32 does not match");
        }
        return new Frame(kind, compression, dictionaryId, payload, bodyEnd - offset);
    }

    /**
     * Check 3: a header's sizes against the limits. A reader makes it before it buffers the body; a writer
     * on the frame it is about to write.
     */
    static void checkSizes(int compression, long bodyLength, long payloadLength, DecodingLimits limits) {
        if (bodyLength > limits.maxFrameBytes) {
            throw Failure.frame("limit.frame-size", "a body of " + bodyLength + " bytes");
        }
        if (compression != 0) {
            if (payloadLength > limits.maxInflatedBytes) {
                throw Failure.frame("limit.inflated-size", "a payload of " + payloadLength + " bytes");
            }
            if (payloadLength > bodyLength * limits.maxInflateRatio) {
                throw Failure.frame("limit.inflate-ratio", "the payload is too large for its body");
            }
        }
    }

    /** A header varint: at most 5 bytes, at most 2^32 - 1, minimally encoded. */
    private static long headerVarint(byte[] data, int[] pos) {
        long value = 0;
        for (int i = 0; i < 5; i++) {
            if (pos[0] + i >= data.length) {
                throw new NeedMore();
            }
            int b = data[pos[0] + i] & 0xFF;
            value |= (long) (b & 0x7F) << (7 * i);
            if (b < 0x80) {
                if (value > 0xFFFFFFFFL || (i > 0 && b == 0)) {
                    throw Failure.frame("frame.varint", "a header varint above 2^32 - 1 or not minimal");
                }
                pos[0] += i + 1;
                return value;
            }
        }
        throw Failure.frame("frame.varint", "a header varint longer than 5 bytes");
    }

    static int readInt32LE(byte[] data, int at) {
        return (data[at] & 0xFF) | (data[at + 1] & 0xFF) << 8 | (data[at + 2] & 0xFF) << 16
                | (data[at + 3] & 0xFF) << 24;
    }
}
