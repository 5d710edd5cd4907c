package imcodec.javatestee;

import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdDictDecompress;
import com.github.luben.zstd.ZstdException;
import java.nio.ByteBuffer;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Compression 2: one magicless zstd frame (docs/spec/frame-format.md, "zstd bodies") through
 * zstd-jni, which links the system's libzstd.
 *
 * <p>zstd-jni 1.5.2 exposes neither {@code ZSTD_d_windowLogMax} nor {@code ZSTD_d_stableOutBuffer}. So this
 * reader judges the zstd frame header itself (RFC 8878, 3.1.1.1: reserved bit, window, dictionary id, content
 * size), walks the block headers, and gives each block whole to zstd's streaming decoder with room for a whole
 * block past the payload length: whether a compressed block is corrupt is then zstd's verdict on the block,
 * whatever it would have written, and the output is counted against the payload length only after it.
 */
final class ZstdBody {
    private ZstdBody() {}

    /** The largest window a reader accepts: 8 MiB (window log 23). */
    private static final long MAX_WINDOW = 1L << 23;

    private static final Map<byte[], ZstdDictDecompress> DECODING_DICTIONARIES = new IdentityHashMap<>();

    /** The largest block zstd has: 128 KiB ({@code ZSTD_BLOCKSIZE_MAX}). */
    private static final int MAX_BLOCK = 1 << 17;

    /** The first bytes of a zstd (ZDICT) dictionary, whose id follows them. */
    private static final int ZDICT_MAGIC = 0xEC30A437;

    /** Decodes {@code data[start..<end]} into exactly {@code payloadLength} bytes (step 5). */
    static byte[] decode(byte[] data, int start, int end, int payloadLength, byte[] dictionary) {
        // 1. The zstd frame header, judged whole: a reserved bit or a cut header (frame.zstd), the window
        // (frame.zstd-window), the dictionary id (frame.zstd), the content size (frame.payload-length).
        if (start >= end) {
            throw Failure.frame("frame.zstd", "the body ends inside the zstd frame header");
        }
        int descriptor = data[start] & 0xFF;
        int contentSizeFlag = descriptor >> 6;
        boolean singleSegment = (descriptor & 0x20) != 0;
        boolean hasChecksum = (descriptor & 0x04) != 0;
        int dictionaryIdFlag = descriptor & 0x03;
        if ((descriptor & 0x08) != 0) {
            throw Failure.frame("frame.zstd", "the zstd frame header's reserved bit is set");
        }
        int contentSizeBytes = switch (contentSizeFlag) {
            case 0 -> singleSegment ? 1 : 0;
            case 1 -> 2;
            case 2 -> 4;
            default -> 8;
        };
        int dictionaryIdBytes = new int[] {0, 1, 2, 4}[dictionaryIdFlag];
        int headerSize = 1 + (singleSegment ? 0 : 1) + dictionaryIdBytes + contentSizeBytes;
        if (end - start < headerSize) {
            throw Failure.frame("frame.zstd", "the body ends inside the zstd frame header");
        }
        int idAt = start + (singleSegment ? 1 : 2);
        long dictionaryId = littleEndian(data, idAt, dictionaryIdBytes);
        long contentSize = littleEndian(data, idAt + dictionaryIdBytes, contentSizeBytes)
                + (contentSizeBytes == 2 ? 256 : 0);
        long window;
        if (singleSegment) {
            // The window is the content size (RFC 8878, 3.1.1.1.2).
            window = contentSize;
        } else {
            int windowDescriptor = data[start + 1] & 0xFF;
            long base = 1L << (10 + (windowDescriptor >> 3));
            window = base + (base / 8) * (windowDescriptor & 7);
        }
        if (window < 0 || window > MAX_WINDOW) {
            throw Failure.frame("frame.zstd-window", "a window of " + Long.toUnsignedString(window) + " bytes");
        }
        if (dictionaryId != 0 && dictionaryId != dictionaryIdOf(dictionary)) {
            throw Failure.frame("frame.zstd", "the zstd frame names dictionary id " + dictionaryId);
        }
        if (contentSizeBytes > 0 && contentSize != payloadLength) {
            throw Failure.frame("frame.payload-length",
                    "the zstd frame's content size is " + Long.toUnsignedString(contentSize));
        }
        int blockMax = (int) Math.min(window, MAX_BLOCK);

        // 2. The blocks in order, each judged from its header, then given whole to zstd.
        ByteBuffer src = ByteBuffer.allocateDirect(end - start);
        src.put(data, start, end - start);
        ByteBuffer dst = ByteBuffer.allocateDirect(payloadLength + blockMax + 1);
        dst.limit(payloadLength + blockMax);
        try (ZstdDecompressCtx context = new ZstdDecompressCtx()) {
            context.setMagicless(true);
            if (dictionary != null) {
                context.loadDict(decodingDictionary(dictionary));
            }
            int at = feed(context, dst, src, 0, headerSize);
            int length = end - start;
            boolean last = false;
            while (!last) {
                if (length - at < 3) {
                    throw Failure.frame("frame.zstd", "the body ends inside a zstd block header");
                }
                int header = (int) littleEndian(data, start + at, 3);
                last = (header & 1) != 0;
                int type = (header >> 1) & 3;
                int size = header >>> 3;
                int stored = type == 1 ? 1 : size;
                int available = Math.min(stored, length - at - 3);
                if (type == 3) {
                    throw Failure.frame("frame.zstd", "a zstd block of the reserved type 3");
                }
                if (size > blockMax) {
                    // Block_Maximum_Size (RFC 8878, 3.1.1.2.4): for an RLE block, the bytes it makes.
                    throw Failure.frame("frame.zstd", "a zstd block of " + size + " bytes, past its maximum of "
                            + blockMax);
                }
                if (type == 0 && (long) dst.position() + available > payloadLength) {
                    // A raw block is copied as its bytes arrive, so it overflows before the body ends.
                    throw tooLong();
                }
                if (available < stored) {
                    throw Failure.frame("frame.zstd", "the body ends inside a zstd block");
                }
                if (type == 1 && (long) dst.position() + size > payloadLength) {
                    throw tooLong();
                }
                at = feed(context, dst, src, at, at + 3 + stored);
                if (dst.position() > payloadLength) {
                    throw tooLong();
                }
            }
            // 3. After the last block: the content checksum, bytes left, the length.
            if (hasChecksum) {
                if (length - at < 4) {
                    throw Failure.frame("frame.zstd", "the body ends inside the zstd content checksum");
                }
                at = feed(context, dst, src, at, at + 4);
            }
            if (at != length) {
                throw Failure.frame("frame.zstd", "the zstd frame ends before the body does");
            }
            if (dst.position() != payloadLength) {
                throw Failure.frame("frame.payload-length",
                        "the body decodes to " + dst.position() + " bytes, not " + payloadLength);
            }
        }
        byte[] out = new byte[payloadLength];
        dst.get(0, out);
        return out;
    }

    private static Failure tooLong() {
        return Failure.frame("frame.payload-length", "the body decodes to more than the payload length");
    }

    private static long littleEndian(byte[] data, int at, int count) {
        long value = 0;
        for (int i = 0; i < count; i++) {
            value |= (long) (data[at + i] & 0xFF) << (8 * i);
        }
        return value;
    }

    /** The id a dictionary carries: a zstd (ZDICT) dictionary's own, 0 for raw content or none. */
    private static long dictionaryIdOf(byte[] dictionary) {
        if (dictionary == null || dictionary.length < 8 || (int) littleEndian(dictionary, 0, 4) != ZDICT_MAGIC) {
            return 0;
        }
        return littleEndian(dictionary, 4, 4);
    }

    /**
     * Gives {@code src[from..<to]} to zstd's streaming decoder; answers where it stopped (before {@code to} only
     * when the zstd frame ended there). Any zstd error is {@code frame.zstd}: the room left is never short.
     */
    private static int feed(ZstdDecompressCtx context, ByteBuffer dst, ByteBuffer src, int from, int to) {
        src.limit(to).position(from);
        try {
            while (src.hasRemaining()) {
                int before = src.position();
                context.decompressDirectByteBufferStream(dst, src);
                if (src.position() == before) {
                    break;
                }
            }
        } catch (ZstdException error) {
            throw Failure.frame("frame.zstd", "a corrupt zstd frame: " + error.getMessage());
        }
        return src.position();
    }

    private static synchronized ZstdDictDecompress decodingDictionary(byte[] dictionary) {
        return DECODING_DICTIONARIES.computeIfAbsent(dictionary, ZstdDictDecompress::new);
    }

    /**
     * One magicless zstd frame of {@code payload} without the content size, checksum or dictionary id (the
     * frame header holds them), at a zstd level (1 to 19), with the dictionary loaded as zstd loads it by
     * default.
     */
    static byte[] encode(byte[] payload, int level, byte[] dictionary) {
        try (ZstdCompressCtx context = new ZstdCompressCtx()) {
            context.setLevel(level).setMagicless(true).setContentSize(false).setChecksum(false).setDictID(false);
            if (dictionary != null) {
                context.loadDict(dictionary);
            }
            return context.compress(payload);
        }
    }
}
