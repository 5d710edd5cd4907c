package imcodec.javatestee;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdDictDecompress;
import com.github.luben.zstd.ZstdException;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Compression 2: one magicless zstd frame (docs/spec/frame-format.md, "zstd bodies") through
 * zstd-jni, which links the system's libzstd.
 *
 * <p>zstd-jni 1.5.2 exposes neither {@code ZSTD_d_windowLogMax} nor {@code ZSTD_d_stableOutBuffer}. So this
 * reader judges the frame header itself (RFC 8878, 3.1.1.1: reserved bit, window), walks the block headers to
 * find where the zstd frame ends, and decodes with zstd's one-shot {@code ZSTD_decompressDCtx} into a buffer of
 * exactly the payload length: one-shot decoding writes the blocks straight into that buffer, as the Swift and C
 * readers' stable output buffer does, so a block that would go past it is zstd's "destination too small"
 * ({@code frame.payload-length}) and no window is allocated.
 */
final class ZstdBody {
    private ZstdBody() {}

    /** The largest window a reader accepts: 8 MiB (window log 23). */
    private static final long MAX_WINDOW = 1L << 23;

    private static final Map<byte[], ZstdDictDecompress> DECODING_DICTIONARIES = new IdentityHashMap<>();

    /** The largest block zstd has: 128 KiB ({@code ZSTD_BLOCKSIZE_MAX}). */
    private static final int MAX_BLOCK = 1 << 17;

    /** Where the frame stops being well-formed, found by the walk of the block headers. */
    private enum Break { NONE, CUT, CORRUPT_BLOCK }

    /** Decodes {@code data[start..<end]} into exactly {@code payloadLength} bytes (step 5). */
    static byte[] decode(byte[] data, int start, int end, int payloadLength, byte[] dictionary) {
        // 1. The frame header: a reserved bit or a cut header is frame.zstd, then the window.
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
        long window;
        if (singleSegment) {
            // The window is the content size (RFC 8878, 3.1.1.1.2).
            int at = start + 1 + dictionaryIdBytes;
            long size = 0;
            for (int i = 0; i < contentSizeBytes; i++) {
                size |= (long) (data[at + i] & 0xFF) << (8 * i);
            }
            window = contentSizeBytes == 2 ? size + 256 : size;
        } else {
            int windowDescriptor = data[start + 1] & 0xFF;
            long base = 1L << (10 + (windowDescriptor >> 3));
            window = base + (base / 8) * (windowDescriptor & 7);
        }
        if (window < 0 || window > MAX_WINDOW) {
            throw Failure.frame("frame.zstd-window", "a window of " + Long.toUnsignedString(window) + " bytes");
        }

        // 2. The block headers, to find where the zstd frame ends or breaks.
        int at = start + headerSize;
        Break broken = Break.NONE;
        int rawAvailable = -1; // for a raw block cut short: how many of its bytes the body holds
        int frameEnd = -1;
        boolean afterLastBlock = false;
        while (true) {
            if (end - at < 3) {
                broken = Break.CUT;
                break;
            }
            int header = (data[at] & 0xFF) | (data[at + 1] & 0xFF) << 8 | (data[at + 2] & 0xFF) << 16;
            boolean last = (header & 1) != 0;
            int type = (header >> 1) & 3;
            int size = header >>> 3;
            int stored = type == 1 ? 1 : size;
            // A reserved block type, or a block whose stored size is past Block_Maximum_Size (the window, at
            // most 128 KiB; RFC 8878, 3.1.1.2.4), is corrupt: zstd judges both from the block header.
            if (type == 3 || stored > Math.min(window, MAX_BLOCK)) {
                broken = Break.CORRUPT_BLOCK;
                break;
            }
            if (end - at - 3 < stored) {
                broken = Break.CUT;
                if (type == 0) {
                    rawAvailable = end - at - 3;
                }
                break;
            }
            at += 3 + stored;
            if (last) {
                if (hasChecksum && end - at < 4) {
                    broken = Break.CUT;
                    afterLastBlock = true;
                } else {
                    frameEnd = at + (hasChecksum ? 4 : 0);
                }
                break;
            }
        }

        // 3. Decode the blocks in order into exactly payloadLength bytes.
        byte[] out = new byte[payloadLength];
        if (broken == Break.NONE) {
            int produced = decompress(out, data, start, frameEnd, dictionary);
            if (frameEnd != end) {
                throw Failure.frame("frame.zstd", "the zstd frame ends before the body does");
            }
            if (produced != payloadLength) {
                throw Failure.frame("frame.payload-length",
                        "the body decodes to " + produced + " bytes, not " + payloadLength);
            }
            return out;
        }
        // A broken frame: the blocks before the break still decode first, and one that overflows the payload
        // is found there. They are decoded as a frame of their own, closed by an empty last raw block (01 00 00)
        // unless the break comes after the last block, and without the content checksum, which would follow it.
        byte[] prefix = Arrays.copyOf(Arrays.copyOfRange(data, start, at), at - start + (afterLastBlock ? 0 : 3));
        prefix[0] &= (byte) ~0x04;
        if (!afterLastBlock) {
            prefix[at - start] = 1;
        }
        int produced = decompress(out, prefix, 0, prefix.length, dictionary);
        if (rawAvailable >= 0 && (long) produced + rawAvailable > payloadLength) {
            // A raw block is copied as its bytes arrive, so it overflows before the body ends.
            throw Failure.frame("frame.payload-length", "a raw block overflows the payload before the body ends");
        }
        throw Failure.frame("frame.zstd", broken == Break.CORRUPT_BLOCK
                ? "a block of the reserved type 3, or larger than the block maximum"
                : "the body ends inside the zstd frame");
    }

    /**
     * One-shot decoding of {@code src[from..<to]} into {@code out}; zstd's "destination too small" is
     * {@code frame.payload-length}, every other error {@code frame.zstd}.
     */
    private static int decompress(byte[] out, byte[] src, int from, int to, byte[] dictionary) {
        try (ZstdDecompressCtx context = new ZstdDecompressCtx()) {
            context.setMagicless(true);
            if (dictionary != null) {
                context.loadDict(decodingDictionary(dictionary));
            }
            return context.decompressByteArray(out, 0, out.length, src, from, to - from);
        } catch (ZstdException error) {
            if (error.getErrorCode() == Zstd.errDstSizeTooSmall()) {
                throw Failure.frame("frame.payload-length", "the body decodes to more than the payload length");
            }
            throw Failure.frame("frame.zstd", "not one valid zstd frame: " + error.getMessage());
        }
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
