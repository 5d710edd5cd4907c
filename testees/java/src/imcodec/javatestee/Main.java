package imcodec.javatestee;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import imcodec.testee.v1.Testee;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;

/**
 * An imcodec testee in Java on protobuf-java, java.util.zip and zstd-jni. It speaks the testee protocol
 * (docs/spec/testee-protocol.md) on standard input and output: a 4-byte
 * little-endian length and a serialized {@code Request}, answered by one {@code Response} the same way.
 */
public final class Main {
    private Main() {}

    /** The largest request it reads; anything larger ends the testee (its input is out of step). */
    private static final int MAX_REQUEST_BYTES = 1 << 30;

    /** The repository root, which holds Schemas/dictionaries: the launcher passes it as imcodec.root. */
    static Path repositoryRoot() {
        return Path.of(System.getProperty("imcodec.root", ".")).toAbsolutePath();
    }

    /**
     * Serves requests until standard input ends. Runs on a thread with a large stack: protobuf-java and
     * JsonFormat recurse once per nested message, and a value may nest hundreds of messages within the limits.
     */
    public static void main(String[] args) throws InterruptedException {
        // Nothing but responses may reach standard output.
        OutputStream out = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16);
        System.setOut(System.err);
        int[] status = {0};
        Thread server = new Thread(null, () -> status[0] = serve(new FileInputStream(FileDescriptor.in), out),
                "testee", 1L << 30);
        server.start();
        server.join();
        System.exit(status[0]);
    }

    private static int serve(InputStream stdin, OutputStream stdout) {
        DataInputStream in = new DataInputStream(new BufferedInputStream(stdin, 1 << 16));
        byte[] prefix = new byte[4];
        try {
            while (true) {
                int first = in.read();
                if (first < 0) {
                    return 0;
                }
                prefix[0] = (byte) first;
                try {
                    in.readFully(prefix, 1, 3);
                } catch (EOFException cut) {
                    System.err.println("imcodec java testee: the input ends inside a length prefix");
                    return 1;
                }
                long length = Integer.toUnsignedLong(FrameReader.readInt32LE(prefix, 0));
                if (length > MAX_REQUEST_BYTES) {
                    System.err.println("imcodec java testee: a request of " + length + " bytes is more than it reads");
                    return 1;
                }
                byte[] body = new byte[(int) length];
                try {
                    in.readFully(body);
                } catch (EOFException cut) {
                    System.err.println("imcodec java testee: the input ends inside a request");
                    return 1;
                }
                byte[] answer = answer(body).toByteArray();
                int size = answer.length;
                stdout.write(new byte[] {(byte) size, (byte) (size >>> 8), (byte) (size >>> 16), (byte) (size >>> 24)});
                stdout.write(answer);
                stdout.flush();
            }
        } catch (IOException error) {
            System.err.println("imcodec java testee: " + error);
            return 1;
        }
    }

    private static Testee.Response answer(byte[] body) {
        Testee.Request request;
        try {
            request = Testee.Request.parseFrom(body);
        } catch (InvalidProtocolBufferException error) {
            return Testee.Response.newBuilder()
                    .setRuntimeError("the request does not parse: " + error.getMessage()).build();
        }
        Testee.Response.Builder response = Testee.Response.newBuilder();
        try {
            handle(request, response);
        } catch (Failure failure) {
            response.setFailure(failure(failure));
        } catch (BadRequest error) {
            response.setRuntimeError(error.getMessage());
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError | LinkageError error) {
            // A bug or a limit of this testee: say so, never crash.
            response.setRuntimeError(error.toString());
        }
        return response.build();
    }

    private static void handle(Testee.Request request, Testee.Response.Builder response) {
        DecodingLimits limits = DecodingLimits.of(request);
        switch (request.getOperationCase()) {
            case DECODE_PAYLOAD -> {
                var op = request.getDecodePayload();
                response.setPayload(ByteString.copyFrom(
                        Payloads.canonical(op.getKindValue(), op.getPayload().toByteArray(), limits)));
            }
            case DECODE_FRAME -> response.setFrame(Frames.decodeFrame(request.getDecodeFrame().getFrame().toByteArray(),
                    limits));
            case ENCODE_FRAME -> response.setFrameBytes(ByteString.copyFrom(
                    FrameWriter.encode(request.getEncodeFrame(), limits)));
            case DECODE_STREAM -> response.setStream(Frames.decodeStream(request.getDecodeStream().getChunksList(),
                    limits));
            case VALIDATE -> response.setFindings(Validator.answer(request.getValidate(), limits));
            case JSON_TO_PAYLOAD -> {
                var op = request.getJsonToPayload();
                var message = JsonInput.read(op.getKindValue(), op.getJson(), op.getJsonBytes().size(), limits);
                response.setPayload(ByteString.copyFrom(message.toByteArray()));
            }
            case PAYLOAD_TO_JSON -> {
                var op = request.getPayloadToJson();
                response.setJson(JsonInput.print(Payloads.decode(op.getKindValue(), op.getPayload().toByteArray(),
                        limits)));
            }
            case REST_TO_PAYLOAD -> {
                var op = request.getRestToPayload();
                response.setPayload(RestImport.read(op.getKindValue(), op.getRest(), limits).toByteString());
            }
            case PAYLOAD_TO_REST -> {
                var op = request.getPayloadToRest();
                response.setRest(RestExport.write(Payloads.decode(op.getKindValue(), op.getPayload().toByteArray(),
                        limits)));
            }
            case VALIDATE_REST -> response.setFindings(RestValidator.answer(request.getValidateRest(), limits));
            case OPERATION_NOT_SET -> response.setRuntimeError("the request names no operation");
            default -> response.setRuntimeError("unknown operation " + request.getOperationCase());
        }
    }

    /** The protocol's {@code Failure} of a rejected input. */
    static Testee.Failure failure(Failure failure) {
        return Testee.Failure.newBuilder()
                .setCode(failure.code)
                .setPath(failure.path)
                .setReason(String.valueOf(failure.getMessage()))
                .build();
    }
}
