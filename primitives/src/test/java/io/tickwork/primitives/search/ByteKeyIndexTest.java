package io.tickwork.primitives.search;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link ByteKeyIndex} against a {@link TreeMap} model: exact lookup, lower bound and prefix ranges
 * on random UTF-8 and raw-byte keys (multi-byte characters, long shared prefixes, NUL and 0xFF
 * bytes), with and without ASCII case folding, built directly and after a serialization round trip
 * through heap and direct buffers; and every header check of {@link ByteKeyIndex#wrap}.
 */
class ByteKeyIndexTest {

    static final int[] SIZES = {0, 1, 2, 3, 7, 8, 9, 15, 63, 64, 65, 511, 512, 513, 3000};

    // ---------------------------------------------------------------------------------------
    // model: Strings compared by code point (which is UTF-8 byte order), optionally ASCII-folded

    static String foldAscii(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            b.append(c >= 'A' && c <= 'Z' ? (char) (c | 0x20) : c);
        }
        return b.toString();
    }

    static Comparator<String> order(boolean fold) {
        Function<String, String> f = fold ? ByteKeyIndexTest::foldAscii : Function.identity();
        return (x, y) -> {
            int[] a = f.apply(x).codePoints().toArray();
            int[] b = f.apply(y).codePoints().toArray();
            return Arrays.compare(a, b);
        };
    }

    private static final String[] ATOMS = {
        "a",
        "b",
        "z",
        "A",
        "B",
        "Z",
        "0",
        "_",
        "é",
        "ß",
        "中",
        "文",
        "😀",
        "\u0000",
        "\u007f",
        "\uffff",
        "http://example.com/",
        "abcdefgh",
        "ABCDEFGHI"
    };

    static String randomString(SplittableRandom r) {
        StringBuilder b = new StringBuilder();
        int parts = r.nextInt(0, 7);
        for (int i = 0; i < parts; i++) {
            b.append(ATOMS[r.nextInt(ATOMS.length)]);
        }
        return b.toString();
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Builds via keys, and via writeTo/wrap into heap, offset heap and direct buffers. */
    static List<ByteKeyIndex> variants(List<byte[]> keys, boolean fold) {
        ByteKeyIndex built = ByteKeyIndex.build(keys, fold);
        List<ByteKeyIndex> all = new ArrayList<>();
        all.add(built);
        all.add(ByteKeyIndex.wrap(ByteBuffer.wrap(built.toByteArray())).verify());
        ByteBuffer offset = ByteBuffer.allocate(built.serializedSize() + 20).order(ByteOrder.BIG_ENDIAN);
        offset.position(13);
        built.writeTo(offset);
        assertEquals(13 + built.serializedSize(), offset.position());
        offset.put((byte) 0x5A); // trailing unrelated data
        offset.position(13);
        ByteKeyIndex wrapped = ByteKeyIndex.wrap(offset);
        assertEquals(13, offset.position(), "wrap must not move the caller's position");
        all.add(wrapped);
        ByteBuffer direct = ByteBuffer.allocateDirect(built.serializedSize());
        built.writeTo(direct);
        direct.flip();
        all.add(ByteKeyIndex.wrap(direct));
        return all;
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void utf8KeysMatchTreeMapForExactLowerBoundAndPrefix(boolean fold) {
        long seed = System.nanoTime();
        SplittableRandom r = new SplittableRandom(seed);
        Comparator<String> cmp = order(fold);
        // keys that share nothing, and keys that all start alike (the index skips that part),
        // in mixed case when folding, so that only their folded bytes agree
        for (String sharedStart : new String[] {"", "https://example.org/", "https://" + "e".repeat(80) + ".org/"})
            for (int n : SIZES) {
                String what = "n=" + n + " fold=" + fold + " shared=" + sharedStart + " seed=" + seed;
                List<String> strings = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    String start =
                            fold && r.nextBoolean() ? sharedStart.toUpperCase(java.util.Locale.ROOT) : sharedStart;
                    strings.add(start + randomString(r));
                }
                strings.sort(cmp);
                List<byte[]> keys = new ArrayList<>();
                strings.forEach(s -> keys.add(utf8(s)));
                TreeMap<String, Integer> first = new TreeMap<>(cmp);
                for (int i = n - 1; i >= 0; i--) {
                    first.put(strings.get(i), i);
                }
                List<String> probes = new ArrayList<>();
                for (int i = 0; i < 300; i++) {
                    probes.add(randomString(r));
                    probes.add(sharedStart + randomString(r));
                    probes.add(sharedStart.substring(0, r.nextInt(sharedStart.length() + 1)));
                    if (!sharedStart.isEmpty()) { // one byte of the shared start changed: before or after every key
                        int at = r.nextInt(sharedStart.length());
                        char other = (char) (sharedStart.charAt(at) + (r.nextBoolean() ? 1 : -1));
                        probes.add(
                                sharedStart.substring(0, at) + other + sharedStart.substring(at + 1) + randomString(r));
                    }
                    if (n > 0) {
                        String k = strings.get(r.nextInt(n));
                        probes.add(k);
                        probes.add(k.substring(
                                0, k.offsetByCodePoints(0, r.nextInt(k.codePointCount(0, k.length()) + 1))));
                        probes.add(k + ATOMS[r.nextInt(ATOMS.length)]);
                        probes.add(fold ? k.toUpperCase(java.util.Locale.ROOT) : k);
                    }
                }
                for (ByteKeyIndex ix : variants(keys, fold)) {
                    assertEquals(n, ix.size(), what);
                    assertEquals(fold, ix.asciiCaseInsensitive(), what);
                    for (int i = 0; i < n; i++) {
                        assertEquals(strings.get(i), ix.keyString(i), what);
                    }
                    for (String p : probes) {
                        byte[] q = utf8(p);
                        Integer exact = first.get(p);
                        Map.Entry<String, Integer> ceil = first.ceilingEntry(p);
                        int lower = ceil == null ? n : ceil.getValue();
                        int want = exact != null ? exact : -(lower + 1);
                        assertEquals(want, ix.find(q, 0, q.length), what + " find " + p);
                        assertEquals(lower, ix.lowerBound(q, 0, q.length), what + " lowerBound " + p);
                        int end = n;
                        String fp = fold ? foldAscii(p) : p;
                        for (Map.Entry<String, Integer> e :
                                first.tailMap(p, true).entrySet()) {
                            if (!(fold ? foldAscii(e.getKey()) : e.getKey()).startsWith(fp)) {
                                end = e.getValue();
                                break;
                            }
                        }
                        assertEquals(
                                end,
                                ix.prefixEnd(q, 0, q.length),
                                what + " prefixEnd "
                                        + p.codePoints().boxed().collect(java.util.stream.Collectors.toList()));
                        assertEquals((long) lower << 32 | end, ix.prefixRange(q, 0, q.length), what);
                    }
                }
            }
    }

    /** Raw bytes (not UTF-8): 0x00/0xFF, keys tied on their first 8 bytes, long shared runs. */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void rawByteKeysMatchTreeMapModel(boolean fold) {
        long seed = System.nanoTime();
        SplittableRandom r = new SplittableRandom(seed);
        byte[] alphabet = {
            0, 1, 'A', 'Z', 'a', 'z', '@', '[', '`', '{', (byte) 0x7F, (byte) 0x80, (byte) 0xFE, (byte) 0xFF
        };
        Comparator<byte[]> cmp = (a, b) -> ByteKeyIndex.compare(a, b, fold);
        // independent model for the unfolded case
        Comparator<byte[]> model = fold ? foldedModel() : Arrays::compareUnsigned;
        for (int n : SIZES) {
            String what = "n=" + n + " fold=" + fold + " seed=" + seed;
            List<byte[]> keys = new ArrayList<>();
            byte[][] stems = {
                new byte[0],
                "abcdefg".getBytes(),
                "abcdefgh".getBytes(),
                "abcdefghijklmnop".getBytes(),
                {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF}
            };
            for (int i = 0; i < n; i++) {
                keys.add(randomBytes(r, stems, alphabet));
            }
            keys.sort(model);
            TreeMap<byte[], Integer> first = new TreeMap<>(model);
            for (int i = n - 1; i >= 0; i--) {
                first.put(keys.get(i), i);
            }
            for (ByteKeyIndex ix : variants(keys, fold)) {
                for (int t = 0; t < 1500; t++) {
                    byte[] q = t % 2 == 0 || n == 0
                            ? randomBytes(r, stems, alphabet)
                            : keys.get(r.nextInt(n)).clone();
                    if (t % 3 == 0 && q.length > 0) {
                        q = Arrays.copyOf(q, r.nextInt(q.length));
                    }
                    Integer exact = first.get(q);
                    Map.Entry<byte[], Integer> ceil = first.ceilingEntry(q);
                    int lower = ceil == null ? n : ceil.getValue();
                    String qs = Arrays.toString(q);
                    assertEquals(exact != null ? exact : -(lower + 1), ix.find(q, 0, q.length), what + " " + qs);
                    int end = lower;
                    while (end < n && startsWith(keys.get(end), q, fold)) {
                        end++;
                    }
                    assertEquals(end, ix.prefixEnd(q, 0, q.length), what + " prefixEnd " + qs);
                    // the same query inside a larger array at an offset
                    byte[] padded = new byte[q.length + 6];
                    System.arraycopy(q, 0, padded, 3, q.length);
                    assertEquals(lower, ix.lowerBound(padded, 3, q.length), what + " offset " + qs);
                }
            }
            assertTrue(cmp.compare(new byte[] {1}, new byte[] {1, 0}) < 0);
        }
    }

    private static Comparator<byte[]> foldedModel() {
        return (a, b) -> {
            byte[] fa = a.clone();
            byte[] fb = b.clone();
            for (byte[] x : new byte[][] {fa, fb}) {
                for (int i = 0; i < x.length; i++) {
                    if (x[i] >= 'A' && x[i] <= 'Z') {
                        x[i] += 32;
                    }
                }
            }
            return Arrays.compareUnsigned(fa, fb);
        };
    }

    private static boolean startsWith(byte[] key, byte[] p, boolean fold) {
        if (key.length < p.length) {
            return false;
        }
        for (int i = 0; i < p.length; i++) {
            int x = key[i] & 0xFF;
            int y = p[i] & 0xFF;
            if (fold ? ByteKeyIndex.foldByte(x) != ByteKeyIndex.foldByte(y) : x != y) {
                return false;
            }
        }
        return true;
    }

    private static byte[] randomBytes(SplittableRandom r, byte[][] stems, byte[] alphabet) {
        byte[] stem = stems[r.nextInt(stems.length)];
        byte[] k = Arrays.copyOf(stem, stem.length + r.nextInt(0, 6));
        for (int i = stem.length; i < k.length; i++) {
            k[i] = alphabet[r.nextInt(alphabet.length)];
        }
        return k;
    }

    // ---------------------------------------------------------------------------------------
    // building

    /** {@code writeTo}'s documented failures, each leaving the buffer's position where it was. */
    @Test
    void writeToAShortOrReadOnlyBufferThrowsAndWritesNothing() {
        ByteKeyIndex index = ByteKeyIndex.build(List.of(utf8("apple"), utf8("pear")), false);
        ByteBuffer shortOne = ByteBuffer.allocate(index.serializedSize() - 1);
        assertThrows(java.nio.BufferOverflowException.class, () -> index.writeTo(shortOne));
        assertEquals(0, shortOne.position());
        ByteBuffer readOnly = ByteBuffer.allocate(index.serializedSize()).asReadOnlyBuffer();
        assertThrows(java.nio.ReadOnlyBufferException.class, () -> index.writeTo(readOnly));
        assertEquals(0, readOnly.position());
    }

    @Test
    void rejectsUnsortedKeysNamingIndexAndKeys() {
        List<byte[]> keys = List.of(utf8("apple"), utf8("pear"), utf8("fig"));
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> ByteKeyIndex.build(keys, false));
        assertTrue(
                e.getMessage().contains("index 2")
                        && e.getMessage().contains("\"pear\"")
                        && e.getMessage().contains("\"fig\""),
                e.getMessage());
    }

    @Test
    void caseInsensitiveIndexNeedsFoldedOrderAndKeepsOriginalBytes() {
        List<byte[]> keys = List.of(utf8("apple"), utf8("Banana"), utf8("cherry"));
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> ByteKeyIndex.build(keys, false));
        assertTrue(
                e.getMessage().contains("index 1") && e.getMessage().contains("unsigned byte order"), e.getMessage());
        ByteKeyIndex ix = ByteKeyIndex.build(keys, true);
        assertEquals(1, ix.find(utf8("BANANA")));
        assertEquals(1, ix.find(utf8("banana")));
        assertEquals("Banana", ix.keyString(1));
        assertEquals(-3, ix.find(utf8("BANANAS")));
        // folded order rejects what is sorted only case-sensitively: "Zeta" < "apple" in bytes
        IllegalArgumentException f = assertThrows(
                IllegalArgumentException.class, () -> ByteKeyIndex.build(List.of(utf8("Zeta"), utf8("apple")), true));
        assertTrue(f.getMessage().contains("case-insensitive"), f.getMessage());
        // only ASCII folds: 'É' and 'é' stay distinct
        ByteKeyIndex accents = ByteKeyIndex.build(List.of(utf8("É"), utf8("é")), true);
        assertEquals(0, accents.find(utf8("É")));
        assertEquals(1, accents.find(utf8("é")));
    }

    /** Any {@code List} gives the same image: a linked list is read once, not by index. */
    @Test
    void aLinkedListBuildsTheSameIndex() {
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            keys.add(utf8(String.format("key-%05d", i)));
        }
        assertArrayEquals(
                ByteKeyIndex.build(keys, false).toByteArray(),
                ByteKeyIndex.build(new LinkedList<>(keys), false).toByteArray());
    }

    @Test
    void duplicatesAnswerTheFirst() {
        List<byte[]> keys = List.of(utf8("a"), utf8("b"), utf8("b"), utf8("b"), utf8("c"));
        for (ByteKeyIndex ix : variants(keys, false)) {
            assertEquals(1, ix.find(utf8("b")));
            assertEquals(4, ix.prefixEnd(utf8("b"), 0, 1));
        }
        ByteKeyIndex ci = ByteKeyIndex.build(List.of(utf8("Ab"), utf8("aB"), utf8("ab")), true);
        assertEquals(0, ci.find(utf8("AB")));
    }

    @Test
    void keyAccessors() {
        ByteKeyIndex ix = ByteKeyIndex.build(List.of(utf8(""), utf8("héllo"), utf8("中文")), false);
        assertEquals(0, ix.keyLength(0));
        assertEquals(6, ix.keyLength(1));
        byte[] dst = new byte[10];
        assertEquals(6, ix.copyKey(2, dst, 4));
        assertArrayEquals(utf8("中文"), Arrays.copyOfRange(dst, 4, 10));
        byte[] before = dst.clone();
        assertThrows(IndexOutOfBoundsException.class, () -> ix.copyKey(2, dst, 5)); // 6 bytes from 5 of 10
        assertArrayEquals(before, dst, "nothing copied");
        assertThrows(IndexOutOfBoundsException.class, () -> ix.copyKey(3, dst, 0));
        assertThrows(NullPointerException.class, () -> ix.copyKey(1, null, 0));
        assertEquals(0, ix.find(new byte[0]));
        byte[] image = ix.toByteArray();
        assertArrayEquals(utf8("héllo"), Arrays.copyOfRange(image, ix.keyPosition(1), ix.keyPosition(1) + 6));
        assertThrows(IndexOutOfBoundsException.class, () -> ix.keyLength(3));
        assertThrows(IndexOutOfBoundsException.class, () -> ix.find(new byte[3], 2, 2));
    }

    @Test
    void nullsAreRefusedWithNullPointerException() {
        ByteKeyIndex ix = ByteKeyIndex.build(List.of(utf8("a"), utf8("b")), false);
        assertEquals(
                "sortedKeys",
                assertThrows(NullPointerException.class, () -> ByteKeyIndex.build(null, false))
                        .getMessage());
        assertThrows(NullPointerException.class, () -> ByteKeyIndex.build(Arrays.asList(utf8("a"), null), false));
        assertEquals(
                "serialized",
                assertThrows(NullPointerException.class, () -> ByteKeyIndex.wrap(null))
                        .getMessage());
        assertThrows(NullPointerException.class, () -> ix.find(null));
        assertThrows(NullPointerException.class, () -> ix.find(null, 0, 0));
        assertThrows(NullPointerException.class, () -> ix.lowerBound(null, 0, 0));
        assertThrows(NullPointerException.class, () -> ix.prefixEnd(null, 0, 0));
        assertThrows(IndexOutOfBoundsException.class, () -> ix.prefixEnd(new byte[2], 1, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> ix.lowerBound(new byte[2], -1, 1));
    }

    @Test
    void emptyIndex() {
        for (ByteKeyIndex ix : variants(List.of(), true)) {
            assertEquals(0, ix.size());
            assertEquals(-1, ix.find(utf8("x")));
            assertEquals(0, ix.prefixEnd(utf8("x"), 0, 1));
            assertEquals(0, ix.lowerBound(new byte[0], 0, 0));
        }
    }

    // ---------------------------------------------------------------------------------------
    // corrupt images

    private static byte[] image() {
        return ByteKeyIndex.build(List.of(utf8("alpha"), utf8("beta"), utf8("gamma")), false)
                .toByteArray();
    }

    private static String wrapError(byte[] image) {
        return assertThrows(IllegalArgumentException.class, () -> ByteKeyIndex.wrap(ByteBuffer.wrap(image)))
                .getMessage();
    }

    private static byte[] withInt(int at, int value) {
        byte[] b = image();
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(at, value);
        return b;
    }

    @Test
    void wrapRejectsCorruptHeadersNamingTheField() {
        assertTrue(wrapError(withInt(0, 0x12345678)).contains("magic 0x12345678"));
        assertTrue(wrapError(withInt(4, 2)).contains("version 2"));
        assertTrue(wrapError(withInt(8, 6)).contains("flags 0x00000006"));
        assertTrue(wrapError(withInt(12, -1)).contains("count must be >= 0: -1"));
        assertTrue(wrapError(withInt(12, 100)).contains("inconsistent with count 100"));
        assertTrue(wrapError(withInt(12, Integer.MAX_VALUE)).contains("count 2147483647 too large"));
        assertTrue(wrapError(withInt(16, -5)).contains("keyBytes must be >= 0: -5"));
        assertTrue(wrapError(withInt(16, 1000)).contains("need"));
        assertTrue(wrapError(withInt(28, -1)).contains("shared prefix length -1"));
        assertTrue(wrapError(withInt(28, 1000)).contains("shared prefix length 1000"));
        assertTrue(wrapError(Arrays.copyOf(image(), 10)).contains("too short"));
        assertTrue(wrapError(Arrays.copyOf(image(), image().length - 1)).contains("too short"));
        byte[] b = withInt(16, 13); // keyBytes 13 but offsets say 14
        assertTrue(wrapError(Arrays.copyOf(b, b.length)).contains("offsets"), wrapError(b));
    }

    /** A shared-prefix length that is not the first and last keys' is refused by verify (wrap checks its range only). */
    @Test
    void verifyCatchesAWrongSharedPrefixLength() {
        byte[] shared = ByteKeyIndex.build(List.of(utf8("key-a"), utf8("key-b"), utf8("key-c")), false)
                .toByteArray();
        assertEquals(4, ByteBuffer.wrap(shared).order(ByteOrder.LITTLE_ENDIAN).getInt(28)); // "key-"
        for (int skip : new int[] {0, 3, 5}) {
            byte[] b = shared.clone();
            ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(28, skip);
            ByteKeyIndex wrapped = ByteKeyIndex.wrap(ByteBuffer.wrap(b));
            String message = assertThrows(IllegalArgumentException.class, wrapped::verify)
                    .getMessage();
            assertTrue(message.contains("shared prefix length " + skip), message);
        }
        byte[] b = shared.clone();
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(28, 6); // "key-a" has 5 bytes
        String message = assertThrows(IllegalArgumentException.class, () -> ByteKeyIndex.wrap(ByteBuffer.wrap(b)))
                .getMessage();
        assertTrue(message.contains("longer than the first key (5 bytes)"), message);
        assertTrue(verifyError(withInt(28, 1)).contains("shared prefix length 1")); // alpha, beta, gamma share nothing
    }

    private static String verifyError(byte[] image) {
        ByteKeyIndex wrapped = ByteKeyIndex.wrap(ByteBuffer.wrap(image));
        return assertThrows(IllegalArgumentException.class, wrapped::verify).getMessage();
    }

    @Test
    void wrapRejectsCountsNoBufferCanHoldNamingTheField() {
        int max = Integer.MAX_VALUE;
        int[] counts = {max, max - 1, max - 6, max - 7, max - 8, 1 << 30, ByteKeyIndex.MAX_KEYS + 1};
        for (int count : counts) {
            String plain = wrapError(withInt(12, count));
            assertTrue(plain.contains("count " + count + " too large"), plain);
            // with the tree fields an int overflow of the count would compute: 1 level of 8 longs
            byte[] h = withInt(12, count);
            ByteBuffer.wrap(h).order(ByteOrder.LITTLE_ENDIAN).putInt(20, 1).putInt(24, 8);
            String matched = wrapError(h);
            assertTrue(matched.contains("count " + count + " too large"), matched);
        }
        // a count within the bound, with consistent levels and treeLongs, still needs its bytes
        int[] lengths = ByteKeyIndex.levelLengths(ByteKeyIndex.MAX_KEYS);
        byte[] big = withInt(12, ByteKeyIndex.MAX_KEYS);
        int treeLongs = Arrays.stream(lengths).sum();
        ByteBuffer.wrap(big)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt(20, lengths.length)
                .putInt(24, treeLongs);
        String tooShort = wrapError(big);
        assertTrue(tooShort.contains("too short"), tooShort);
    }

    @Test
    void keyAccessorsOfAnUnverifiedDamagedImageThrowIndexOutOfBounds() {
        byte[] b = image(); // keys "alpha", "beta", "gamma": 14 key bytes, offsets 0, 5, 9, 14
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        int offsetsBase = ByteKeyIndex.HEADER_SIZE + 8 * bb.getInt(24);
        bb.putInt(offsetsBase + 8, 15); // offsets[2] past the key bytes: "beta" ends after "gamma" would
        ByteKeyIndex damaged = ByteKeyIndex.wrap(ByteBuffer.wrap(b)); // the O(1) checks pass
        assertEquals(5, damaged.keyLength(0));
        assertThrows(IndexOutOfBoundsException.class, () -> damaged.keyLength(1));
        assertThrows(IndexOutOfBoundsException.class, () -> damaged.keyPosition(1));
        assertThrows(IndexOutOfBoundsException.class, () -> damaged.keyPosition(2));
        assertThrows(IndexOutOfBoundsException.class, () -> damaged.keyString(1));
        assertThrows(IndexOutOfBoundsException.class, () -> damaged.keyString(2));
        assertThrows(IllegalArgumentException.class, damaged::verify);
    }

    /**
     * Keys sorted with {@code order(fold)} are what {@code build} with the same flag accepts,
     * including the cases a {@code String} sort gets wrong: a character beyond U+FFFF (UTF-16 puts
     * it before U+FFFD, code points after) and case folding.
     */
    @Test
    void keysSortedByTheIndexOrderAreAccepted() {
        List<String> words = List.of("\uFFFD", "\uD83D\uDE00", "caf\u00E9", "CafE", "b", "Ab", "a", "", "ab");
        for (boolean fold : new boolean[] {false, true}) {
            List<byte[]> keys = new ArrayList<>();
            for (String w : words) {
                keys.add(w.getBytes(StandardCharsets.UTF_8));
            }
            List<byte[]> bySortedStrings = new ArrayList<>();
            words.stream().sorted().forEach(w -> bySortedStrings.add(w.getBytes(StandardCharsets.UTF_8)));
            assertThrows(IllegalArgumentException.class, () -> ByteKeyIndex.build(bySortedStrings, fold));
            keys.sort(ByteKeyIndex.order(fold));
            ByteKeyIndex index = ByteKeyIndex.build(keys, fold);
            for (int i = 0; i < keys.size(); i++) {
                byte[] k = keys.get(i);
                int found = index.find(k);
                assertTrue(found >= 0 && ByteKeyIndex.order(fold).compare(keys.get(found), k) == 0, "key " + i);
            }
        }
        assertThrows(NullPointerException.class, () -> ByteKeyIndex.order(false).compare(null, new byte[0]));
    }

    /** A key that is not printable UTF-8 is named in hex in the refusal, so the message says which bytes. */
    @Test
    void anUnsortedKeyThatIsNotTextIsNamedInHex() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> ByteKeyIndex.build(List.of(new byte[] {(byte) 0x80}, new byte[] {0x7F}), false));
        assertTrue(e.getMessage().contains("key[0] = 0x80 (1 byte) > key[1] = 0x7f (1 byte)"), e.getMessage());
        IllegalArgumentException t = assertThrows(
                IllegalArgumentException.class,
                () -> ByteKeyIndex.build(
                        List.of("door".getBytes(StandardCharsets.UTF_8), "do".getBytes(StandardCharsets.UTF_8)),
                        false));
        assertTrue(t.getMessage().contains("key[0] = \"door\" (4 bytes) > key[1] = \"do\" (2 bytes)"), t.getMessage());
        // a long key of two-byte characters, the 64th byte in the middle of one: text up to it
        String longer = "x" + "\u0436".repeat(40) + "b"; // 82 bytes; bytes 63 and 64 are one character
        String shorter = "x" + "\u0436".repeat(40) + "a";
        IllegalArgumentException l = assertThrows(
                IllegalArgumentException.class,
                () -> ByteKeyIndex.build(
                        List.of(longer.getBytes(StandardCharsets.UTF_8), shorter.getBytes(StandardCharsets.UTF_8)),
                        false));
        assertTrue(l.getMessage().contains("key[0] = \"x" + "\u0436".repeat(31) + "...\" (82 bytes)"), l.getMessage());
        // 100 bytes that are no text, the 65th a continuation byte: hex, not an empty or cut-short text
        byte[] high = new byte[100];
        byte[] low = new byte[100];
        Arrays.fill(high, (byte) 0x90);
        Arrays.fill(low, (byte) 0x80);
        IllegalArgumentException h =
                assertThrows(IllegalArgumentException.class, () -> ByteKeyIndex.build(List.of(high, low), false));
        assertTrue(
                h.getMessage().contains("key[0] = 0x" + "90".repeat(64) + "... (100 bytes) > key[1] = 0x"),
                h.getMessage());
        // text, then bytes that are no text from before the 65th on: hex too
        byte[] textThenNot = Arrays.copyOf("abc".getBytes(StandardCharsets.UTF_8), 103);
        Arrays.fill(textThenNot, 3, 103, (byte) 0x80);
        IllegalArgumentException m = assertThrows(
                IllegalArgumentException.class,
                () -> ByteKeyIndex.build(List.of(textThenNot, new byte[] {'a'}), false));
        assertTrue(m.getMessage().contains("key[0] = 0x616263" + "80".repeat(61) + "... (103 bytes)"), m.getMessage());
    }

    @Test
    void verifyCatchesCorruptBody() {
        byte[] b = image();
        b[b.length - 5] = 'A'; // "gamma" becomes "Aamma", which sorts before "beta"
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> ByteKeyIndex.wrap(ByteBuffer.wrap(b)).verify());
        assertTrue(e.getMessage().contains("not sorted at index 2"), e.getMessage());
        ByteKeyIndex.wrap(ByteBuffer.wrap(image())).verify();
        byte[] c = image();
        c[c.length - 1] = 'b'; // "gammb": still sorted, but the stored 8-byte prefix says "gamma"
        IllegalArgumentException p = assertThrows(
                IllegalArgumentException.class,
                () -> ByteKeyIndex.wrap(ByteBuffer.wrap(c)).verify());
        assertTrue(p.getMessage().contains("prefix 2"), p.getMessage());
    }

    /**
     * Every long of the tree follows from the keys (their prefixes, the padding, each upper entry
     * the last value of its child node), so a flip of any byte of it fails {@code verify}, read in
     * place; the image as built passes.
     */
    @Test
    void verifyCatchesAnyDamageToTheTree() {
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            keys.add(String.format("key%04d", i * 7).getBytes(StandardCharsets.UTF_8));
        }
        byte[] image = ByteKeyIndex.build(keys, false).toByteArray();
        int treeLongs = ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN).getInt(24);
        assertEquals(3, ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN).getInt(20), "two upper levels");
        ByteKeyIndex.wrap(ByteBuffer.wrap(image)).verify();
        for (int at = ByteKeyIndex.HEADER_SIZE; at < ByteKeyIndex.HEADER_SIZE + 8 * treeLongs; at++) {
            byte[] damaged = image.clone();
            damaged[at] ^= 0x10;
            int where = at;
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class,
                    () -> ByteKeyIndex.wrap(ByteBuffer.wrap(damaged)).verify(),
                    "byte " + where);
            assertTrue(
                    e.getMessage().contains("prefix") || e.getMessage().contains("tree level"),
                    "byte " + where + ": " + e.getMessage());
        }
    }

    /**
     * An image one array cannot hold is refused with a clear error, also in the last bytes below
     * 2^31, where allocating it would fail with an {@code OutOfMemoryError} however large the heap.
     */
    @Test
    void anImageNoArrayCanHoldIsRefusedClearly() {
        ByteKeyIndex.requireImageFits(Integer.MAX_VALUE - 8, 1, 1);
        for (long size : new long[] {Integer.MAX_VALUE - 7L, Integer.MAX_VALUE - 1L, Integer.MAX_VALUE, 1L << 32}) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> ByteKeyIndex.requireImageFits(size, 3, 7));
            assertTrue(e.getMessage().startsWith("index too large: " + size + " bytes"), e.getMessage());
        }
    }

    /** The image's size is the class comment's formula, small indexes included. */
    @Test
    void theImageSizeIsTheStatedFormula() {
        for (int n : new int[] {0, 1, 8, 9, 64, 65, 1_000, 100_000}) {
            List<byte[]> keys = new ArrayList<>(n);
            long keyBytes = 0;
            for (int i = 0; i < n; i++) {
                byte[] k = String.format("k%07d", i).getBytes(StandardCharsets.US_ASCII);
                keys.add(k);
                keyBytes += k.length;
            }
            long level = Math.max(8, (n + 7) / 8 * 8);
            long treeLongs = level;
            while (level > 8) {
                level = (level / 8 + 7) / 8 * 8;
                treeLongs += level;
            }
            assertEquals(
                    32 + 8 * treeLongs + 4L * (n + 1) + keyBytes,
                    ByteKeyIndex.build(keys, false).serializedSize(),
                    "n=" + n);
        }
        assertEquals(100, ByteKeyIndex.build(List.of(), false).serializedSize(), "no keys");
    }

    /** {@code copyKey} gives back any bytes; {@code keyString} decodes them as UTF-8. */
    @Test
    void copyKeyKeepsBytesThatAreNotUtf8AndKeyStringDecodesThem() {
        byte[] notUtf8 = {(byte) 0xC3};
        ByteKeyIndex ix = ByteKeyIndex.build(List.of("a".getBytes(StandardCharsets.UTF_8), notUtf8), false);
        byte[] back = new byte[1];
        assertEquals(1, ix.copyKey(1, back, 0));
        assertArrayEquals(notUtf8, back);
        assertEquals("\uFFFD", ix.keyString(1));
    }

    @Test
    void toStringNamesTheCountTheBytesAndTheFolding() {
        List<byte[]> keys = List.of("a".getBytes(StandardCharsets.US_ASCII), "b".getBytes(StandardCharsets.US_ASCII));
        ByteKeyIndex exact = ByteKeyIndex.build(keys, false);
        assertEquals("ByteKeyIndex[n=2, bytes=" + exact.serializedSize() + "]", exact.toString());
        assertEquals(
                "ByteKeyIndex[n=2, bytes=" + exact.serializedSize() + ", asciiCaseInsensitive]",
                ByteKeyIndex.build(keys, true).toString());
    }
}
