package imcodec.javatestee;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * The shipped preset dictionaries, read from Schemas/dictionaries/&lt;id&gt;.bin
 * (docs/spec/frame-format.md, "The shipped dictionaries"): the files are the source of truth.
 */
final class Dictionaries {
    private static final Map<Long, byte[]> BY_ID = load();

    private Dictionaries() {}

    /** The bytes of dictionary {@code id}, or null when no shipped dictionary has that id. */
    static byte[] get(long id) {
        return BY_ID.get(id);
    }

    private static Map<Long, byte[]> load() {
        Path folder = Main.repositoryRoot().resolve("Schemas").resolve("dictionaries");
        Map<Long, byte[]> found = new TreeMap<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(folder, "*.bin")) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                String id = name.substring(0, name.length() - 4);
                if (!id.isEmpty() && id.chars().allMatch(Character::isDigit)) {
                    found.put(Long.parseLong(id), Files.readAllBytes(file));
                }
            }
        } catch (IOException error) {
            throw new UncheckedIOException("cannot read the dictionaries in " + folder, error);
        }
        return found;
    }
}
