package imcodec.javatestee;

import java.io.ByteArrayOutputStream;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/** Compression 1: raw deflate (zlib windowBits -15) through java.util.zip, with a preset dictionary or none. */
final class Deflate {
    private Deflate() {}

    /**
     * Inflates {@code data[start..<end]} into exactly {@code payloadLength} bytes (step 5): more than that is
     * found first ({@code frame.payload-length}); then a corrupt stream, one that never reaches its final
     * block or ends before the body does ({@code frame.deflate}); then a short one ({@code frame.payload-length}).
     */
    static byte[] inflate(byte[] data, int start, int end, int payloadLength, byte[] dictionary) {
        Inflater inflater = new Inflater(true);
        try {
            inflater.setInput(data, start, end - start);
            if (dictionary != null) {
                inflater.setDictionary(dictionary);
            }
            // One byte more than allowed shows a stream that wants to produce more; inflating stops there.
            byte[] out = new byte[payloadLength + 1];
            int produced = 0;
            try {
                while (produced < out.length && !inflater.finished()) {
                    int n = inflater.inflate(out, produced, out.length - produced);
                    produced += n;
                    if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                        break;
                    }
                }
            } catch (DataFormatException error) {
                if (inflatedBeforeBreak(data, start, end, out.length, dictionary) > payloadLength) {
                    throw Failure.frame("frame.payload-length",
                            "the body inflates to more than the payload length before it breaks");
                }
                throw Failure.frame("frame.deflate", "not a valid deflate stream: " + error.getMessage());
            }
            if (produced > payloadLength) {
                throw Failure.frame("frame.payload-length", "the body inflates to more than the payload length");
            }
            if (!inflater.finished()) {
                throw Failure.frame("frame.deflate", "the deflate stream ends before its final block");
            }
            if (inflater.getRemaining() > 0) {
                throw Failure.frame("frame.deflate", "the deflate stream ends before the body does");
            }
            if (produced < payloadLength) {
                throw Failure.frame("frame.payload-length", "the body inflates to fewer bytes than the payload length");
            }
            return java.util.Arrays.copyOf(out, payloadLength);
        } finally {
            inflater.end();
        }
    }

    /**
     * How many bytes (at most {@code bound}) a broken stream inflates to before the symbol that breaks it. An
     * {@link Inflater} that throws does not say what it wrote first, so the body is cut: the longest prefix that
     * inflates without an error, found by halving, holds every symbol before the break.
     */
    private static int inflatedBeforeBreak(byte[] data, int start, int end, int bound, byte[] dictionary) {
        int good = 0;
        int bad = end - start;
        while (bad - good > 1) {
            int middle = (good + bad) >>> 1;
            if (inflatePrefix(data, start, middle, bound, dictionary) >= 0) {
                good = middle;
            } else {
                bad = middle;
            }
        }
        return Math.max(inflatePrefix(data, start, good, bound, dictionary), 0);
    }

    /** What the first {@code length} bytes of the body inflate to (at most {@code bound}), or -1 if they break. */
    private static int inflatePrefix(byte[] data, int start, int length, int bound, byte[] dictionary) {
        Inflater inflater = new Inflater(true);
        try {
            inflater.setInput(data, start, length);
            if (dictionary != null) {
                inflater.setDictionary(dictionary);
            }
            byte[] out = new byte[bound];
            int produced = 0;
            while (produced < bound && !inflater.finished()) {
                int n = inflater.inflate(out, produced, bound - produced);
                produced += n;
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    break;
                }
            }
            return produced;
        } catch (DataFormatException error) {
            return -1;
        } finally {
            inflater.end();
        }
    }

    /** A raw deflate stream of {@code payload} at a zlib level (1 to 9), primed with the dictionary if any. */
    static byte[] deflate(byte[] payload, int level, byte[] dictionary) {
        Deflater deflater = new Deflater(level, true);
        try {
            if (dictionary != null) {
                deflater.setDictionary(dictionary);
            }
            deflater.setInput(payload);
            deflater.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream(payload.length / 2 + 64);
            byte[] buffer = new byte[8192];
            while (!deflater.finished()) {
                int n = deflater.deflate(buffer);
                out.write(buffer, 0, n);
            }
            return out.toByteArray();
        } finally {
            deflater.end();
        }
    }
}
