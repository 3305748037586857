package io.tickwork.server.dict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dictionary file is mapped only when it is whole: a damaged or truncated file is refused with a
 * message that names it, and the cached copy of the embedded data lives in a per-user, owner-only
 * directory and is checked like any other file before it is mapped.
 */
class DictionaryIntegrityTest {
    @TempDir
    Path tmp;

    @AfterEach
    void clearCacheOverride() {
        System.clearProperty("tickwork.cache.dir");
    }

    static byte[] embeddedBytes() throws IOException {
        try (InputStream in = Dictionary.class.getResourceAsStream(DictFormat.RESOURCE)) {
            return in.readAllBytes();
        }
    }

    /** The embedded file with {@code flips} random bytes past the header changed. */
    static byte[] damaged(int flips, long seed) throws IOException {
        byte[] b = embeddedBytes();
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < flips; i++) {
            int at = DictFormat.HEADER_SIZE + r.nextInt(b.length - DictFormat.HEADER_SIZE);
            b[at] ^= (byte) (1 + r.nextInt(255));
        }
        return b;
    }

    @Test
    void aWholeFileOpens() throws IOException {
        Path file = Files.write(tmp.resolve("whole.twd"), embeddedBytes());
        assertEquals(147_478, Dictionary.open(file).wordCount());
    }

    @Test
    void twoThousandFlippedBytesAreRefusedNamingTheFile() throws IOException {
        Path file = Files.write(tmp.resolve("flipped.twd"), damaged(2_000, 7));
        DamagedDictionaryException e = assertThrows(DamagedDictionaryException.class, () -> Dictionary.open(file));
        assertTrue(e.getMessage().startsWith(file + ": damaged: the CRC-32"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line");
    }

    @Test
    void oneFlippedByteIsRefused() throws IOException {
        Path file = Files.write(tmp.resolve("one.twd"), damaged(1, 11));
        assertThrows(DamagedDictionaryException.class, () -> Dictionary.open(file));
    }

    /**
     * The CRC covers the data, not the header: a change to any header field (a count, a section's
     * offset or length; +8 and -8, as an aligned offset moves) is refused against the layout,
     * naming the file, rather than served as other sections' bytes.
     */
    @Test
    void everyHeaderFieldChangedIsRefusedNamingTheFile() throws IOException {
        byte[] whole = embeddedBytes();
        for (int at = 8; at < DictFormat.HEADER_SIZE; at += 4) {
            if (at == DictFormat.CRC_POS) {
                continue; // the CRC itself: refused as a CRC mismatch (below)
            }
            // a change by one is caught wherever the reader uses the field: the counts, the tables'
            // and data sections' lengths, the licence's; the two key indexes read their own headers
            int section = (at - (DictFormat.HEADER_SIZE - DictFormat.SECTIONS * 8)) / 8;
            boolean keysLength = at >= DictFormat.HEADER_SIZE - DictFormat.SECTIONS * 8
                    && at % 8 == 4
                    && (section == DictFormat.KEYS || section == DictFormat.EXC_KEYS);
            for (int delta : keysLength ? new int[] {8, -8} : new int[] {8, -8, 1, -1}) {
                byte[] b = whole.clone();
                java.nio.ByteBuffer.wrap(b)
                        .putInt(at, java.nio.ByteBuffer.wrap(b).getInt(at) + delta);
                Path file = Files.write(tmp.resolve("header-" + at + "-" + delta + ".twd"), b);
                DamagedDictionaryException e = assertThrows(
                        DamagedDictionaryException.class,
                        () -> Dictionary.open(file),
                        "header byte " + at + " changed by " + delta);
                assertTrue(e.getMessage().startsWith(file + ": "), e.getMessage());
            }
        }
        byte[] b = whole.clone();
        b[DictFormat.CRC_POS] ^= 1;
        Path file = Files.write(tmp.resolve("crc.twd"), b);
        assertThrows(DamagedDictionaryException.class, () -> Dictionary.open(file));
    }

    @Test
    void aTruncatedFileIsRefusedNamingTheFile() throws IOException {
        byte[] whole = embeddedBytes();
        Path half = Files.write(tmp.resolve("half.twd"), Arrays.copyOf(whole, whole.length / 2));
        DamagedDictionaryException e = assertThrows(DamagedDictionaryException.class, () -> Dictionary.open(half));
        assertTrue(e.getMessage().startsWith(half + ": truncated: "), e.getMessage());
        Path stub = Files.write(tmp.resolve("stub.twd"), Arrays.copyOf(whole, 10));
        e = assertThrows(DamagedDictionaryException.class, () -> Dictionary.open(stub));
        assertTrue(e.getMessage().contains("shorter than the"), e.getMessage());
    }

    @Test
    void theEmbeddedCopyIsCachedOwnerOnlyAndADamagedCopyIsReplaced() throws IOException {
        Path cache = tmp.resolve("cache");
        System.setProperty("tickwork.cache.dir", cache.toString());
        assertEquals(147_478, Dictionary.openEmbedded().wordCount());
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cache)));
        Path copy;
        try (var files = Files.list(cache)) {
            copy = files.filter(p -> p.toString().endsWith(".twd")).findFirst().orElseThrow();
        }
        Files.write(copy, damaged(2_000, 3)); // planted or rotted: not what the jar holds
        assertEquals(147_478, Dictionary.openEmbedded().wordCount());
        assertEquals(147_478, Dictionary.open(copy).wordCount(), "the damaged copy was rewritten");
    }

    @Test
    void aCacheDirectoryOthersCanWriteIsNotUsed() throws IOException {
        Path shared = Files.createDirectory(tmp.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        System.setProperty("tickwork.cache.dir", shared.toString());
        assertEquals(147_478, Dictionary.openEmbedded().wordCount(), "served from memory instead");
        try (var files = Files.list(shared)) {
            assertEquals(0, files.count(), "nothing written where another user could plant a file");
        }
    }

    /**
     * Ownership is the numeric uid, not the user name (a uid without a passwd entry has none, and
     * the JVM calls it {@code ?}); and a home of {@code ?} gives no cache directory rather than a
     * relative {@code ./?/.cache}.
     */
    @Test
    void ourOwnFilesAreOursAndAHomeOfQuestionMarkHasNoCache() throws IOException {
        Path mine = Files.writeString(tmp.resolve("mine"), "x");
        String name = System.getProperty("user.name");
        String home = System.getProperty("user.home");
        org.junit.jupiter.api.Assumptions.assumeTrue(
                System.getenv("XDG_CACHE_HOME") == null
                        || System.getenv("XDG_CACHE_HOME").isEmpty(),
                "XDG_CACHE_HOME set: the home is not consulted");
        try {
            System.setProperty("user.name", "?");
            assertTrue(Dictionary.ownedByUs(mine), "by uid, whatever the name");
            System.setProperty("user.home", "?");
            assertEquals(null, Dictionary.cacheDirectory());
            assertEquals(null, Dictionary.trustedCacheDirectory());
        } finally {
            System.setProperty("user.name", name);
            System.setProperty("user.home", home);
        }
    }
}
