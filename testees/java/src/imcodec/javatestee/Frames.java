package imcodec.javatestee;

import com.google.protobuf.ByteString;
import imcodec.testee.v1.Testee;
import java.util.List;

/** The protocol's {@code decode_frame} and {@code decode_stream}. */
final class Frames {
    private Frames() {}

    /** One frame, exactly: bytes after it are {@code frame.trailing-bytes}, checked before the payload. */
    static Testee.DecodedFrame decodeFrame(byte[] data, DecodingLimits limits) {
        FrameReader.Frame frame;
        try {
            frame = FrameReader.read(data, 0, limits);
        } catch (FrameReader.NeedMore cut) {
            throw Failure.frame("frame.truncated", "the input ends inside the frame");
        }
        if (frame.length() != data.length) {
            throw Failure.frame("frame.trailing-bytes", (data.length - frame.length()) + " bytes after the frame");
        }
        return decoded(frame, limits);
    }

    /**
     * A stream reader over the chunks: frames back to back, split anywhere. Joining the chunks first changes
     * nothing, since each check needs only the bytes before it; a frame cut by the end of the input is an
     * incomplete tail, never {@code frame.truncated}, and the reader stops at the first error.
     */
    static Testee.StreamResult decodeStream(List<ByteString> chunks, DecodingLimits limits) {
        byte[] data = ByteString.copyFrom(chunks).toByteArray();
        Testee.StreamResult.Builder result = Testee.StreamResult.newBuilder();
        int pos = 0;
        try {
            while (pos < data.length) {
                FrameReader.Frame frame;
                try {
                    frame = FrameReader.read(data, pos, limits);
                } catch (FrameReader.NeedMore cut) {
                    result.setIncompleteTail(true);
                    break;
                }
                result.addFrames(decoded(frame, limits));
                pos += frame.length();
            }
        } catch (Failure failure) {
            result.setIncompleteTail(false);
            result.setFailure(Main.failure(failure));
        }
        return result.build();
    }

    private static Testee.DecodedFrame decoded(FrameReader.Frame frame, DecodingLimits limits) {
        return Testee.DecodedFrame.newBuilder()
                .setKindValue(frame.kind())
                .setCompression(frame.compression())
                .setDictionaryId((int) frame.dictionaryId())
                .setPayload(ByteString.copyFrom(Payloads.canonical(frame.kind(), frame.payload(), limits)))
                .build();
    }
}
