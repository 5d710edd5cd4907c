package imcodec.javatestee;

import imcodec.testee.v1.Testee;
import java.io.ByteArrayOutputStream;
import java.util.zip.CRC32;

/**
 * Writes frames as docs/spec/frame-format.md ("Writing frames: writer within reader") says:
 * a frame that a reader with the writer's limits refuses is never written.
 */
final class FrameWriter {
    private FrameWriter() {}

    /** zlib's own default level, for {@code level} 0 with deflate. */
    private static final int DEFLATE_DEFAULT_LEVEL = 6;
    /** zstd's own default level ({@code ZSTD_CLEVEL_DEFAULT}), for {@code level} 0 with zstd. */
    private static final int ZSTD_DEFAULT_LEVEL = 3;

    /**
     * Answers {@code encode_frame}: a frame of the payload's canonical encoding, refusing what a reader with
     * the limits refuses, in its order: the stored frame's size, then the payload decoded with the limits.
     */
    static byte[] encode(Testee.EncodeFrameRequest request, DecodingLimits limits) {
        int kind = request.getKindValue();
        if (!Schema.isKind(kind)) {
            throw new BadRequest("payload kind " + kind + " is not message, batch or event");
        }
        long compression = Integer.toUnsignedLong(request.getCompression());
        if (compression > 2) {
            throw new BadRequest("compression " + compression + " is not 0, 1 or 2");
        }
        long level = Integer.toUnsignedLong(request.getLevel());
        // The level is the compressor's: with compression 0 it is not looked at.
        if (compression != 0 && level > (compression == 2 ? 19 : 9)) {
            throw new BadRequest("level " + level + " is not 0...9 (0...19 for zstd)");
        }
        long dictionaryId = Integer.toUnsignedLong(request.getDictionaryId());
        byte[] dictionary = null;
        if (dictionaryId != 0) {
            dictionary = Dictionaries.get(dictionaryId);
            if (dictionary == null) {
                throw Failure.frame("frame.dictionary", "no shipped dictionary has id " + dictionaryId);
            }
        }
        // The reader's order: first the frame of the bytes as given (its size: limit.frame-size), then the
        // payload decoded with the limits; the frame written holds the canonical encoding.
        byte[] given = request.getPayload().toByteArray();
        build(kind, given, (int) compression, request, level, dictionaryId, dictionary, limits);
        byte[] payload = Payloads.canonical(kind, given, limits);
        return build(kind, payload, (int) compression, request, level, dictionaryId, dictionary, limits);
    }

    /**
     * The frame of a payload that a reader with the limits accepts: compressed when the policy asks, the body
     * is smaller and the compressed frame passes check 3; stored otherwise, and refused with
     * {@code limit.frame-size} when even the stored frame does not pass.
     */
    private static byte[] build(int kind, byte[] payload, int compression, Testee.EncodeFrameRequest request,
            long level, long dictionaryId, byte[] dictionary, DecodingLimits limits) {
        long threshold = Integer.toUnsignedLong(request.getThreshold());
        if (compression != 0 && payload.length >= threshold) {
            byte[] body = compression == 2
                    ? ZstdBody.encode(payload, level == 0 ? ZSTD_DEFAULT_LEVEL : (int) level, dictionary)
                    : Deflate.deflate(payload, level == 0 ? DEFLATE_DEFAULT_LEVEL : (int) level, dictionary);
            if (body.length < payload.length && accepted(compression, body.length, payload.length, limits)) {
                return frame(kind, compression, dictionary == null ? 0 : dictionaryId, body, payload);
            }
        }
        FrameReader.checkSizes(0, payload.length, payload.length, limits);
        return frame(kind, 0, 0, payload, payload);
    }

    private static boolean accepted(int compression, long bodyLength, long payloadLength, DecodingLimits limits) {
        try {
            FrameReader.checkSizes(compression, bodyLength, payloadLength, limits);
            return true;
        } catch (Failure refused) {
            return false;
        }
    }

    /** The frame's bytes: header, CRC-32 over the header and the payload, body. */
    private static byte[] frame(int kind, int compression, long dictionaryId, byte[] body, byte[] payload) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + 16);
        out.write(1);
        out.write(kind | compression << 2 | (dictionaryId != 0 ? 0x10 : 0));
        if (dictionaryId != 0) {
            writeVarint(out, dictionaryId);
        }
        writeVarint(out, body.length);
        if (compression != 0) {
            writeVarint(out, payload.length);
        }
        byte[] header = out.toByteArray();
        CRC32 crc = new CRC32();
        crc.update(header);
        crc.update(payload);
        long checksum = crc.getValue();
        for (int i = 0; i < 4; i++) {
            out.write((int) (checksum >>> (8 * i)) & 0xFF);
        }
        out.write(body, 0, body.length);
        return out.toByteArray();
    }

    private static void writeVarint(ByteArrayOutputStream out, long value) {
        while (value >= 0x80) {
            out.write((int) (value & 0x7F) | 0x80);
            value >>>= 7;
        }
        out.write((int) value);
    }
}
