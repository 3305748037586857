package io.tickwork.primitives.search;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * A sorted, immutable index over many byte-string keys (normally UTF-8) stored back to back in one
 * buffer, searched without creating a {@code String} or any other object per probe. It answers
 * exact lookup ({@link #find}, with {@link java.util.Arrays#binarySearch}'s contract), lower bound,
 * and prefix ranges ({@link #lowerBound} .. {@link #prefixEnd}). It is built for the dictionary
 * server: {@link #writeTo} lays the whole index out in a self-describing binary format and
 * {@link #wrap} searches such an image in place, zero-copy, e.g. in a slice of a memory-mapped file.
 *
 * <pre>{@code
 * List<byte[]> keys = new ArrayList<>();                           // UTF-8 keys
 * for (String w : List.of("apple", "door", "doorbell", "Doors")) keys.add(w.getBytes(UTF_8));
 * keys.sort(ByteKeyIndex.order(true));                             // the order build checks
 * ByteKeyIndex words = ByteKeyIndex.build(keys, true);             // or ByteKeyIndex.wrap(mappedSlice)
 * int i = words.find("Door".getBytes(UTF_8));                      // 1: "door" is key 1
 * byte[] p = "door".getBytes(UTF_8);
 * int from = words.lowerBound(p, 0, p.length);                     // 1: keys starting with p are
 * int to = words.prefixEnd(p, 0, p.length);                        // 4: indexes from .. to - 1
 * }</pre>
 *
 * <p><b>Bad input.</b> A null key list, key, query or buffer throws {@link NullPointerException};
 * a query range {@code (off, len)} outside its array throws {@link IndexOutOfBoundsException}.
 *
 * <p><b>Order.</b> Keys are compared as unsigned bytes, lexicographically (a shorter key that is a
 * prefix of a longer one sorts first). For UTF-8 this is Unicode code-point order. With
 * {@code asciiCaseInsensitive}, bytes {@code 'A'..'Z'} compare as {@code 'a'..'z'} (only ASCII is
 * folded; other bytes, including every byte of a multi-byte UTF-8 sequence, compare unchanged), in
 * the keys and in the queries. {@link #build} requires the keys in non-decreasing order under the
 * chosen order and rejects anything else naming the index and both keys; {@link #order} sorts
 * them so. (Java's {@code String} order is UTF-16's, not code points': it differs from this order
 * once keys hold characters beyond U+FFFF.) Equal keys (including keys
 * equal only after folding) are allowed; lookups answer the first of them (lower-bound semantics).
 * Keys keep their original bytes: {@link #copyKey} returns them as given ({@link #keyString}
 * decodes them as UTF-8, so bytes that are not UTF-8 come back as U+FFFD).
 *
 * <p><b>How it searches.</b> Beside the offsets, the index stores each key's first 8 bytes after
 * the prefix all keys share ({@code https://example.org/} for the pages of one site, nothing for
 * words), case-folded when folding, as one big-endian {@code long}, and above that array a static
 * B+ tree of those longs with 64-byte nodes (8 longs, one cache line). A lookup compares the query
 * with the shared prefix once (its first 64 bytes copied to the heap; a query outside it is answered
 * there), computes
 * its 8-byte prefix after it, descends {@code max(1, ceil(log8(n)))} nodes with three branch-free halvings each, and
 * lands on the first key whose prefix is not smaller. Only keys whose first 8
 * bytes equal the query's are compared byte by byte (usually one key; a run of keys sharing 8 bytes
 * is galloped and binary-searched). So a lookup touches about {@code log8(n)} cache lines of the
 * tree, one line of the prefix array, and the key's offset and bytes only when the prefixes tie.
 *
 * <p><b>Cost.</b> {@link #build}: O(total key bytes) time, and the serialized image is
 * {@code 32 + 8 * treeLongs + 4 * (n + 1) + total key bytes} bytes, where the tree is n prefixes
 * rounded up to a multiple of 8 (at least 8), then each level above it the one below divided by
 * 8, rounded up to a multiple of 8, up to a root of 8: about 8n/7 longs for large n, more for small
 * ones (up to 8 keys: 8 longs, so 0 keys take 100 bytes in all; 9 keys: 24 longs). {@link #wrap}: O(1), checks the
 * header and the sizes only (see {@link #verify()} for a full O(bytes) check). Lookups: O(log n)
 * long comparisons; where r keys share the query's 8 bytes after the shared prefix, O(log r) key
 * comparisons of up to the key's length among them (keys that share long prefixes in groups but
 * not all together, such as the URLs of a few sites, pay this); no allocation.
 *
 * <p><b>Serialized format, version 1</b> (all integers little-endian, offsets relative to the
 * start of the image):
 * <pre>
 *   0  int   magic    0x4B425754 (the bytes "TWBK")
 *   4  int   version  1
 *   8  int   flags    bit 0: ASCII case-insensitive; other bits must be 0
 *  12  int   count    n, number of keys
 *  16  int   keyBytes total length of all keys
 *  20  int   levels   number of B+ tree levels including the prefix array (1 + upper levels)
 *  24  int   treeLongs total longs in all levels (upper levels root first, then the prefix array)
 *  28  int   skip     length of the prefix every key starts with (compared folded when folding):
 *                      the longest prefix of the first and the last key; 0 when empty
 *  32  long[treeLongs] tree: upper levels root first, each padded to a multiple of 8 with
 *                      Long.MAX_VALUE, then the prefix array (n entries padded likewise). A prefix is
 *                      the key's 8 (folded) bytes from skip on, big-endian, zero-padded, XOR Long.MIN_VALUE
 *                      (so signed order equals unsigned byte order); an upper-level entry is the
 *                      largest value in its child node.
 *  32+8*treeLongs  int[n + 1] offsets: key i is keyBytes[offsets[i] .. offsets[i + 1])
 *  then            byte[keyBytes] the keys, back to back, in sorted order
 * </pre>
 *
 * <p><b>Thread safety:</b> immutable; any number of threads may search one instance concurrently
 * (it reads its buffer with absolute gets only, through a private view). The bytes under a
 * {@link #wrap}ped buffer must not change while the index is used; if they do, lookups may answer
 * wrongly or throw {@link IndexOutOfBoundsException}, but never read outside the buffer.
 *
 * <p>Writing the image, checking it and searching it live in this one class because they must
 * agree on every offset of one binary format.
 */
public final class ByteKeyIndex {

    /** The bytes "TWBK" read as a little-endian int. */
    static final int MAGIC = 0x4B425754;

    static final int VERSION = 1;
    static final int FLAG_ASCII_CASE_INSENSITIVE = 1;
    static final int HEADER_SIZE = 32;
    /** Longs per tree node: 8 longs are one 64-byte cache line. */
    static final int FANOUT = 8;
    /**
     * An upper bound on the count of any image: beside the header and the final offset every key
     * takes at least 12 bytes (its 8-byte prefix and its 4-byte offset), and a {@link ByteBuffer}
     * holds at most 2^31-1 bytes. {@link #wrap} rejects larger counts before any size arithmetic.
     */
    static final int MAX_KEYS = (Integer.MAX_VALUE - HEADER_SIZE - 4) / 12;

    private static final int LOG_FANOUT = 3;
    private static final long PAD = Long.MAX_VALUE;

    private final ByteBuffer buf;
    private final int n;
    private final boolean fold;
    private final int keyBytes;
    /** Byte offset of each tree level in {@link #buf}, root first; the last is the prefix array. */
    private final int[] levelBase;

    private final int prefixBase;
    private final int offsetsBase;
    private final int keysBase;
    private final int serializedSize;
    /** Prefix of the last key, or Long.MIN_VALUE when empty: queries above it need no descent. */
    private final long lastPrefix;
    /**
     * How many bytes every key starts with alike (compared folded when folding): the tree's
     * prefixes are each key's 8 bytes after them, and a query is compared with them once, before
     * the descent.
     */
    private final int skip;
    /** The first {@code min(skip, SHARED_COPY)} of those bytes (folded when folding), on the heap. */
    private final byte[] shared;

    /** Shared bytes copied to the heap at most: wrap stays O(1) and small whatever the keys. */
    static final int SHARED_COPY = 64;

    private ByteKeyIndex(
            ByteBuffer image, int n, boolean fold, int keyBytes, int[] levelBase, int treeLongs, int skip) {
        this.buf = image;
        this.n = n;
        this.fold = fold;
        this.keyBytes = keyBytes;
        this.levelBase = levelBase;
        this.prefixBase = levelBase[levelBase.length - 1];
        this.offsetsBase = offsetsBase(treeLongs);
        this.keysBase = offsetsBase + 4 * (n + 1);
        this.serializedSize = keysBase + keyBytes;
        this.lastPrefix = n == 0 ? Long.MIN_VALUE : image.getLong(prefixBase + 8 * (n - 1));
        // key 0 starts at offset 0 and skip <= keyBytes (wrap checks both): inside the image
        this.skip = skip;
        byte[] sh = new byte[Math.min(skip, SHARED_COPY)];
        for (int j = 0; j < sh.length; j++) {
            int x = image.get(keysBase + j) & 0xFF;
            sh[j] = (byte) (fold ? foldByte(x) : x);
        }
        this.shared = sh;
    }

    // ------------------------------------------------------------------------------------------
    // building, serializing, wrapping

    /**
     * Builds an index over {@code sortedKeys}, which must be in non-decreasing order under the
     * chosen comparison (see the class comment). The keys are copied; the list and its arrays may
     * be reused afterwards.
     *
     * @throws IllegalArgumentException if the keys are not sorted (naming the index and both keys),
     *                                  or the image would exceed 2^31 - 9 bytes (the largest array)
     * @throws NullPointerException     if the list or a key is null
     */
    public static ByteKeyIndex build(List<byte[]> sortedKeys, boolean asciiCaseInsensitive) {
        // one pass over the list into an array: O(n) for any List (a LinkedList's get(i) is O(i))
        byte[][] keys = Objects.requireNonNull(sortedKeys, "sortedKeys").toArray(new byte[0][]);
        int n = keys.length;
        long total = 0;
        byte[] prev = null;
        for (int i = 0; i < n; i++) {
            byte[] k = keys[i];
            if (k == null) {
                throw new NullPointerException("key " + i + " is null");
            }
            if (prev != null && compare(prev, k, asciiCaseInsensitive) > 0) {
                throw new IllegalArgumentException("keys not sorted"
                        + (asciiCaseInsensitive ? " (ASCII case-insensitive order)" : " (unsigned byte order)")
                        + " at index " + i + ": key[" + (i - 1) + "] = " + describe(prev)
                        + " > key[" + i + "] = " + describe(k));
            }
            total += k.length;
            prev = k;
        }
        int skip = n == 0 ? 0 : sharedLength(keys[0], keys[n - 1], asciiCaseInsensitive);
        int[] lengths = levelLengths(n);
        int treeLongs = sum(lengths);
        long size = imageSize(treeLongs, n, total);
        requireImageFits(size, n, total);
        ByteBuffer image = ByteBuffer.allocate((int) size).order(ByteOrder.LITTLE_ENDIAN);
        image.putInt(0, MAGIC)
                .putInt(4, VERSION)
                .putInt(8, asciiCaseInsensitive ? FLAG_ASCII_CASE_INSENSITIVE : 0)
                .putInt(12, n)
                .putInt(16, (int) total)
                .putInt(20, lengths.length)
                .putInt(24, treeLongs)
                .putInt(28, skip);
        int[] levelBase = levelBases(lengths);
        int prefixBase = levelBase[levelBase.length - 1];
        int offsetsBase = offsetsBase(treeLongs);
        int keysBase = offsetsBase + 4 * (n + 1);
        int off = 0;
        for (int i = 0; i < n; i++) {
            byte[] k = keys[i];
            image.putLong(prefixBase + 8 * i, prefix(k, skip, k.length - skip, asciiCaseInsensitive));
            image.putInt(offsetsBase + 4 * i, off);
            image.put(keysBase + off, k);
            off += k.length;
        }
        image.putInt(offsetsBase + 4 * n, off);
        for (int i = n; i < lengths[lengths.length - 1]; i++) {
            image.putLong(prefixBase + 8 * i, PAD);
        }
        // upper levels bottom-up: entry e = the largest value (the last) of node e one level down
        for (int lv = levelBase.length - 2; lv >= 0; lv--) {
            int below = levelBase[lv + 1];
            int belowNodes = lengths[lv + 1] / FANOUT;
            for (int e = 0; e < lengths[lv]; e++) {
                long v = e < belowNodes ? image.getLong(below + 8 * (e * FANOUT + FANOUT - 1)) : PAD;
                image.putLong(levelBase[lv] + 8 * e, v);
            }
        }
        return new ByteKeyIndex(image, n, asciiCaseInsensitive, (int) total, levelBase, treeLongs, skip);
    }

    /**
     * The length of the prefix {@code first} and {@code last} share (compared folded when
     * {@code fold}): in sorted keys, the prefix every key between them shares too.
     */
    static int sharedLength(byte[] first, byte[] last, boolean fold) {
        int m = Math.min(first.length, last.length);
        int j = 0;
        while (j < m && (fold ? foldByte(first[j] & 0xFF) == foldByte(last[j] & 0xFF) : first[j] == last[j])) {
            j++;
        }
        return j;
    }

    /**
     * Searches a serialized index in place, without copying: {@code serialized}'s bytes from its
     * position on must start with an image written by {@link #writeTo} (possibly followed by other
     * data). The buffer's position, limit and byte order are not changed; the index keeps a view of
     * exactly {@link #serializedSize()} bytes. Heap, direct and memory-mapped buffers all work.
     *
     * <p>Checks the header and that the sizes fit the buffer, in O(1); call {@link #verify()} to
     * also check offsets, order and tree (O(total bytes)) before trusting a file from elsewhere.
     * Until then a damaged image may answer wrongly (a position outside {@code [-(size + 1), size)}
     * included, so do not index a parallel array with it unchecked) or throw
     * {@link IndexOutOfBoundsException}, but never reads outside the buffer.
     *
     * @throws IllegalArgumentException if the header is wrong (naming the field, its value and what
     *                                  was expected; a count above what any {@link ByteBuffer} can
     *                                  hold included) or the buffer is too short
     * @throws NullPointerException     if {@code serialized} is null
     */
    public static ByteKeyIndex wrap(ByteBuffer serialized) {
        ByteBuffer b = Objects.requireNonNull(serialized, "serialized").slice().order(ByteOrder.LITTLE_ENDIAN);
        if (b.remaining() < HEADER_SIZE) {
            throw new IllegalArgumentException("buffer too short for a ByteKeyIndex header: " + b.remaining()
                    + " bytes remaining, need " + HEADER_SIZE);
        }
        int magic = b.getInt(0);
        if (magic != MAGIC) {
            throw new IllegalArgumentException(
                    String.format("not a ByteKeyIndex: magic 0x%08X, expected 0x%08X (\"TWBK\")", magic, MAGIC));
        }
        int version = b.getInt(4);
        if (version != VERSION) {
            throw new IllegalArgumentException(
                    "unsupported ByteKeyIndex version " + version + ", this reader understands " + VERSION);
        }
        int flags = b.getInt(8);
        if ((flags & ~FLAG_ASCII_CASE_INSENSITIVE) != 0) {
            throw new IllegalArgumentException(String.format(
                    "unknown ByteKeyIndex flags 0x%08X (known: 0x%08X)", flags, FLAG_ASCII_CASE_INSENSITIVE));
        }
        int n = b.getInt(12);
        if (n < 0) {
            throw new IllegalArgumentException("ByteKeyIndex count must be >= 0: " + n);
        }
        if (n > MAX_KEYS) {
            throw new IllegalArgumentException("ByteKeyIndex count " + n + " too large: every key takes at least 12"
                    + " bytes (8-byte prefix, 4-byte offset), so no ByteBuffer holds more than " + MAX_KEYS + " keys");
        }
        int keyBytes = b.getInt(16);
        if (keyBytes < 0) {
            throw new IllegalArgumentException("ByteKeyIndex keyBytes must be >= 0: " + keyBytes);
        }
        int[] lengths = levelLengths(n);
        int treeLongs = sum(lengths);
        if (b.getInt(20) != lengths.length) {
            throw new IllegalArgumentException("ByteKeyIndex levels " + b.getInt(20) + " inconsistent with count " + n
                    + ": expected " + lengths.length);
        }
        if (b.getInt(24) != treeLongs) {
            throw new IllegalArgumentException("ByteKeyIndex treeLongs " + b.getInt(24) + " inconsistent with count "
                    + n + ": expected " + treeLongs);
        }
        int skip = b.getInt(28);
        if (skip < 0 || skip > keyBytes || n == 0 && skip != 0) {
            throw new IllegalArgumentException(
                    "ByteKeyIndex shared prefix length " + skip + " outside [0, " + (n == 0 ? 0 : keyBytes) + "]");
        }
        long size = imageSize(treeLongs, n, keyBytes);
        if (size > b.remaining()) {
            throw new IllegalArgumentException("buffer too short for ByteKeyIndex of " + n + " keys and " + keyBytes
                    + " key bytes: need " + size + " bytes, " + b.remaining() + " remaining");
        }
        ByteBuffer image = b.limit((int) size).slice().order(ByteOrder.LITTLE_ENDIAN);
        int offsetsBase = offsetsBase(treeLongs);
        int last = image.getInt(offsetsBase + 4 * n);
        if (last != keyBytes || image.getInt(offsetsBase) != 0) {
            throw new IllegalArgumentException("ByteKeyIndex offsets inconsistent: offsets[0] = "
                    + image.getInt(offsetsBase) + " (expected 0), offsets[" + n + "] = " + last
                    + " (expected keyBytes = " + keyBytes + ")");
        }
        if (n > 0 && skip > image.getInt(offsetsBase + 4)) {
            throw new IllegalArgumentException("ByteKeyIndex shared prefix length " + skip
                    + " longer than the first key (" + image.getInt(offsetsBase + 4) + " bytes)");
        }
        return new ByteKeyIndex(
                image, n, (flags & FLAG_ASCII_CASE_INSENSITIVE) != 0, keyBytes, levelBases(lengths), treeLongs, skip);
    }

    /**
     * Checks everything {@link #wrap} does not: offsets non-decreasing and inside the key bytes,
     * keys sorted, stored prefixes, their padding and the tree's upper levels exactly as
     * {@link #build} lays them out for these keys. O(total bytes) in time, in place: it reads the
     * buffer and allocates nothing per key, so an image larger than the heap (memory-mapped) can be
     * verified.
     *
     * @return this, for chaining after {@code wrap}
     * @throws IllegalArgumentException naming the first inconsistency found
     */
    public ByteKeyIndex verify() {
        int prevOff = 0;
        for (int i = 0; i <= n; i++) {
            int o = offsetAt(i);
            if (o < prevOff || o > keyBytes) {
                throw new IllegalArgumentException(
                        "ByteKeyIndex offsets[" + i + "] = " + o + " outside [" + prevOff + ", " + keyBytes + "]");
            }
            prevOff = o;
        }
        if (n > 0 && (keyLength(0) < skip || keyLength(n - 1) < skip || sharedOfFirstAndLast() != skip)) {
            throw new IllegalArgumentException(
                    "ByteKeyIndex shared prefix length " + skip + " is not the prefix the first and last keys share");
        }
        for (int i = 0; i < n; i++) {
            if (i > 0 && compareKeys(i - 1, i) > 0) {
                throw new IllegalArgumentException("ByteKeyIndex keys not sorted at index " + i + ": "
                        + describe(copyOfKey(i - 1)) + " > " + describe(copyOfKey(i)));
            }
            if (prefixAt(i) != storedKeyPrefix(i)) {
                throw new IllegalArgumentException(
                        "ByteKeyIndex prefix " + i + " does not match key " + describe(copyOfKey(i)));
            }
        }
        int[] lengths = levelLengths(n);
        for (int i = n; i < lengths[lengths.length - 1]; i++) {
            if (prefixAt(i) != PAD) {
                throw new IllegalArgumentException("ByteKeyIndex prefix padding " + i + " is not the pad value");
            }
        }
        // each upper-level entry is the last value of its node one level down, or the pad
        for (int lv = levelBase.length - 2; lv >= 0; lv--) {
            int below = levelBase[lv + 1];
            int belowNodes = lengths[lv + 1] / FANOUT;
            for (int e = 0; e < lengths[lv]; e++) {
                long expected = e < belowNodes ? buf.getLong(below + 8 * (e * FANOUT + FANOUT - 1)) : PAD;
                if (buf.getLong(levelBase[lv] + 8 * e) != expected) {
                    throw new IllegalArgumentException("ByteKeyIndex tree level " + lv + " entry " + e
                            + " is not the largest value of its child node");
                }
            }
        }
        return this;
    }

    /** {@link #compare} of keys {@code i} and {@code j}, read from the buffer. */
    private int compareKeys(int i, int j) {
        int a = keysBase + offsetAt(i);
        int b = keysBase + offsetAt(j);
        int la = keyLength(i);
        int lb = keyLength(j);
        int m = Math.min(la, lb);
        for (int k = 0; k < m; k++) {
            int x = buf.get(a + k) & 0xFF;
            int y = buf.get(b + k) & 0xFF;
            if (fold) {
                x = foldByte(x);
                y = foldByte(y);
            }
            if (x != y) {
                return x - y;
            }
        }
        return la - lb;
    }

    /** {@link #sharedLength} of the first and last keys, read from the buffer. */
    private int sharedOfFirstAndLast() {
        int a = keysBase + offsetAt(0);
        int b = keysBase + offsetAt(n - 1);
        int m = Math.min(keyLength(0), keyLength(n - 1));
        int j = 0;
        while (j < m) {
            int x = buf.get(a + j) & 0xFF;
            int y = buf.get(b + j) & 0xFF;
            if (fold ? foldByte(x) != foldByte(y) : x != y) {
                break;
            }
            j++;
        }
        return j;
    }

    /** {@link #prefix} of key {@code i} after the shared bytes, read from the buffer. */
    private long storedKeyPrefix(int i) {
        int at = keysBase + offsetAt(i) + skip;
        int m = Math.min(8, keyLength(i) - skip);
        long p = 0;
        for (int k = 0; k < m; k++) {
            int x = buf.get(at + k) & 0xFF;
            p = (p << 8) | (fold ? foldByte(x) : x);
        }
        if (m < 8) {
            p <<= 8 * (8 - m);
        }
        return p ^ Long.MIN_VALUE;
    }

    /** Bytes {@link #writeTo} writes. */
    public int serializedSize() {
        return serializedSize;
    }

    /**
     * Writes the serialized image (format in the class comment) at {@code dst}'s position and
     * advances the position by {@link #serializedSize()}; {@code dst}'s byte order is irrelevant.
     *
     * @throws java.nio.BufferOverflowException if fewer bytes remain
     * @throws java.nio.ReadOnlyBufferException if {@code dst} is read-only
     */
    public void writeTo(ByteBuffer dst) {
        dst.put(buf.duplicate().clear().limit(serializedSize));
    }

    /** The serialized image as a new array. */
    public byte[] toByteArray() {
        byte[] out = new byte[serializedSize];
        buf.duplicate().clear().get(out);
        return out;
    }

    // ------------------------------------------------------------------------------------------
    // queries

    /** Number of keys. */
    public int size() {
        return n;
    }

    /** Whether ASCII letters compare case-insensitively. */
    public boolean asciiCaseInsensitive() {
        return fold;
    }

    /**
     * {@code ByteKeyIndex[n=N, bytes=B]}, with {@code , asciiCaseInsensitive} when folding; B is
     * {@link #serializedSize()}. Equality is identity.
     */
    @Override
    public String toString() {
        return "ByteKeyIndex[n=" + n + ", bytes=" + serializedSize + (fold ? ", asciiCaseInsensitive" : "") + "]";
    }

    /**
     * Exact lookup of {@code key[off .. off+len)}, with {@link java.util.Arrays#binarySearch}'s
     * contract: the index of a key equal to the query (the first one if several are equal), or
     * {@code -(insertion point) - 1}, the insertion point being the index of the first greater key
     * ({@link #size()} if none). No allocation.
     */
    public int find(byte[] key, int off, int len) {
        Objects.checkFromIndexSize(off, len, key.length);
        return search(key, off, len);
    }

    /** {@link #find(byte[], int, int)} over the whole array. */
    public int find(byte[] key) {
        return search(key, 0, key.length);
    }

    /** Index of the first key not less than {@code key[off .. off+len)}; {@link #size()} if none. */
    public int lowerBound(byte[] key, int off, int len) {
        Objects.checkFromIndexSize(off, len, key.length);
        int r = search(key, off, len);
        return r >= 0 ? r : -r - 1;
    }

    /**
     * One past the last key starting with {@code prefix[off .. off+len)}: the keys with that prefix
     * are exactly the indexes {@code lowerBound(prefix) .. prefixEnd(prefix) - 1} (an empty range
     * when the two are equal). An empty prefix ends at {@link #size()}.
     */
    public int prefixEnd(byte[] prefix, int off, int len) {
        Objects.checkFromIndexSize(off, len, prefix.length);
        if (n == 0) {
            return 0;
        }
        if (len == 0) {
            return n;
        }
        if (skip != 0) {
            int c = compareShared(prefix, off, len);
            if (c != 0) {
                return c < 0 ? 0 : n; // before or after every key: the empty range at lowerBound
            }
            if (len <= skip) {
                return n; // every key starts with it
            }
            off += skip;
            len -= skip;
        }
        long q = prefix(prefix, off, len, fold);
        if (len < 8) {
            // every key starting with the prefix has its 8-byte prefix in [q, q | low bits]
            long max = q | (-1L >>> (8 * len));
            return max == Long.MAX_VALUE ? n : lowerBoundPrefix(max + 1);
        }
        int i = lowerBoundPrefix(q);
        if (i == n || prefixAt(i) != q) {
            return i;
        }
        return bisectRun(i, runEnd(i, q), prefix, off, len, true);
    }

    /**
     * The range of keys starting with {@code prefix[off .. off+len)}, packed as
     * {@code (long) first << 32 | end} (end exclusive; empty if {@code first == end}).
     */
    public long prefixRange(byte[] prefix, int off, int len) {
        int first = lowerBound(prefix, off, len);
        int end = prefixEnd(prefix, off, len);
        return (long) first << 32 | end;
    }

    /**
     * Length in bytes of key {@code i}.
     *
     * @throws IndexOutOfBoundsException if {@code i} is not in {@code [0, size())}, or if the key's
     *     offsets do not lie within the key bytes (a {@link #wrap}ped image that {@link #verify()}
     *     would refuse)
     */
    public int keyLength(int i) {
        Objects.checkIndex(i, n);
        int start = offsetAt(i);
        int end = offsetAt(i + 1);
        Objects.checkFromToIndex(start, end, keyBytes);
        return end - start;
    }

    /**
     * Byte offset of key {@code i} inside the serialized image (the view {@link #wrap} keeps), for
     * callers that send key bytes straight from a mapped file. It counts from the image's first
     * byte, the buffer's position when it was wrapped: where the image starts at offset
     * {@code o} of a file, the key's bytes are at {@code o + keyPosition(i)} in the file. The bytes
     * {@code keyPosition(i) .. keyPosition(i) + keyLength(i)} always lie inside the image, checked
     * like {@link #keyLength(int)} does, so an unverified image cannot send a caller outside it.
     *
     * @throws IndexOutOfBoundsException if {@code i} is not in {@code [0, size())}, or if the key's
     *     offsets do not lie within the key bytes (a {@link #wrap}ped image that {@link #verify()}
     *     would refuse)
     */
    public int keyPosition(int i) {
        Objects.checkIndex(i, n);
        int start = offsetAt(i);
        Objects.checkFromToIndex(start, offsetAt(i + 1), keyBytes);
        return keysBase + start;
    }

    /**
     * Copies key {@code i}'s original bytes into {@code dst} at {@code dstOff}.
     *
     * @return the number of bytes copied, {@link #keyLength(int)}
     * @throws IndexOutOfBoundsException if {@code i} is not in {@code [0, size())}, or the key does
     *     not fit in {@code dst} from {@code dstOff} (nothing is copied then)
     * @throws NullPointerException if {@code dst} is null
     */
    public int copyKey(int i, byte[] dst, int dstOff) {
        int len = keyLength(i);
        buf.get(keysBase + offsetAt(i), dst, dstOff, len);
        return len;
    }

    /**
     * Key {@code i} decoded as UTF-8 (allocates; for display and tests, not for searching).
     *
     * @throws IndexOutOfBoundsException if {@code i} is not in {@code [0, size())}
     */
    public String keyString(int i) {
        return new String(copyOfKey(i), StandardCharsets.UTF_8);
    }

    /** Key {@code i}'s original bytes in a new array. */
    private byte[] copyOfKey(int i) {
        byte[] k = new byte[keyLength(i)];
        copyKey(i, k, 0);
        return k;
    }

    // ------------------------------------------------------------------------------------------
    // search internals

    private int search(byte[] key, int off, int len) {
        if (n == 0) {
            return -1;
        }
        if (skip != 0) {
            int c = compareShared(key, off, len);
            if (c != 0 || len < skip) {
                return c > 0 ? -n - 1 : -1; // after every key, or before (a proper prefix of them all too)
            }
            off += skip;
            len -= skip;
        }
        long q = prefix(key, off, len, fold);
        int i = lowerBoundPrefix(q);
        if (i == n || prefixAt(i) != q) {
            return -i - 1;
        }
        int c = compareKey(i, key, off, len, false);
        if (c >= 0) {
            return c == 0 ? i : -i - 1;
        }
        // key i shares the 8-byte prefix but is smaller: binary search the rest of the run
        int lo = bisectRun(i + 1, runEnd(i, q), key, off, len, false);
        if (lo < n && prefixAt(lo) == q && compareKey(lo, key, off, len, false) == 0) {
            return lo;
        }
        return -lo - 1;
    }

    /**
     * Binary search in {@code [lo, hi)}, a run of keys sharing the query's 8-byte prefix: the first
     * key not less than {@code q[off .. off+len)}, or with {@code prefixOnly} the first key whose
     * first {@code len} bytes are greater than the query (one past the keys starting with it); hi if
     * none.
     */
    private int bisectRun(int lo, int hi, byte[] q, int off, int len, boolean prefixOnly) {
        int past = prefixOnly ? 1 : 0; // compareKey below this: the key is still before the answer
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (compareKey(mid, q, off, len, prefixOnly) < past) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * Compares the query's first {@code min(len, skip)} bytes with the bytes every key
     * starts with: negative if the query sorts before every key, positive if after, 0 if they agree
     * (the query then starts with them, or is a prefix of them if shorter).
     */
    private int compareShared(byte[] q, int off, int len) {
        byte[] sh = shared;
        int m = Math.min(len, skip);
        for (int j = 0; j < m; j++) {
            int x = q[off + j] & 0xFF;
            int y = j < sh.length ? sh[j] & 0xFF : buf.get(keysBase + j) & 0xFF; // past the copy: key 0's
            if (fold) {
                x = foldByte(x);
                y = foldByte(y);
            }
            if (x != y) {
                return x - y;
            }
        }
        return 0;
    }

    /** First index whose stored prefix is >= q, or n; descends the B+ tree. */
    private int lowerBoundPrefix(long q) {
        if (q > lastPrefix) {
            return n;
        }
        // q <= the last real prefix, so the first entry >= q is real at every level
        int e = 0;
        final ByteBuffer b = buf;
        for (int base : levelBase) {
            int node = base + (e << (LOG_FANOUT + 3));
            // the node's last entry is >= q (the max of the entry that led here, or padding), so
            // the count of entries < q is in [0, 7]: three branch-free halvings find it
            int p = lt(b.getLong(node + 24), q) << 2;
            p += lt(b.getLong(node + ((p + 1) << 3)), q) << 1;
            p += lt(b.getLong(node + (p << 3)), q);
            e = (e << LOG_FANOUT) + p;
        }
        return e;
    }

    /** First index after i (whose prefix is q) with a different prefix, or n: gallop then bisect. */
    private int runEnd(int i, long q) {
        int good = i;
        long probe = i + 1L;
        int step = 1;
        while (probe < n && prefixAt((int) probe) == q) {
            good = (int) probe;
            step <<= 1;
            probe = (long) good + step;
        }
        int lo = good + 1;
        int hi = (int) Math.min(probe, n);
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (prefixAt(mid) == q) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * Compares key i after the shared bytes with {@code q[off .. off+len)}, a query past them too;
     * with {@code truncate}, only that part's first len bytes (0 means it starts with the query).
     * Callers know the 8-byte prefixes are equal, so the first min(8, both lengths) bytes are
     * equal and skipped.
     */
    private int compareKey(int i, byte[] q, int off, int len, boolean truncate) {
        int start = offsetAt(i) + skip;
        int klen = offsetAt(i + 1) - start;
        if (truncate && klen > len) {
            klen = len;
        }
        int m = Math.min(klen, len);
        int p = keysBase + start;
        final ByteBuffer b = buf;
        if (fold) {
            for (int j = Math.min(8, m); j < m; j++) {
                int x = foldByte(b.get(p + j) & 0xFF);
                int y = foldByte(q[off + j] & 0xFF);
                if (x != y) {
                    return x - y;
                }
            }
        } else {
            for (int j = Math.min(8, m); j < m; j++) {
                int x = b.get(p + j) & 0xFF;
                int y = q[off + j] & 0xFF;
                if (x != y) {
                    return x - y;
                }
            }
        }
        return klen - len;
    }

    /** 1 if x < q else 0. */
    private static int lt(long x, long q) {
        return x < q ? 1 : 0;
    }

    private long prefixAt(int i) {
        return buf.getLong(prefixBase + (i << 3));
    }

    private int offsetAt(int i) {
        return buf.getInt(offsetsBase + (i << 2));
    }

    // ------------------------------------------------------------------------------------------
    // shared helpers (package-private for tests)

    /** First 8 (folded) bytes big-endian, zero padded, sign-flipped so signed order = byte order. */
    static long prefix(byte[] k, int off, int len, boolean fold) {
        long p = 0;
        int m = Math.min(8, len);
        if (fold) {
            for (int j = 0; j < m; j++) {
                p = (p << 8) | foldByte(k[off + j] & 0xFF);
            }
        } else {
            for (int j = 0; j < m; j++) {
                p = (p << 8) | (k[off + j] & 0xFF);
            }
        }
        if (m < 8) {
            p <<= 8 * (8 - m);
        }
        return p ^ Long.MIN_VALUE;
    }

    static int foldByte(int b) {
        return (char) (b - 'A') < 26 ? b | 0x20 : b;
    }

    /** The index order: unsigned bytes, optionally ASCII-folded, shorter prefix first. */
    static int compare(byte[] a, byte[] b, boolean fold) {
        int m = Math.min(a.length, b.length);
        for (int j = 0; j < m; j++) {
            int x = a[j] & 0xFF;
            int y = b[j] & 0xFF;
            if (fold) {
                x = foldByte(x);
                y = foldByte(y);
            }
            if (x != y) {
                return x - y;
            }
        }
        return a.length - b.length;
    }

    /**
     * The order {@link #build} requires: unsigned bytes, lexicographic, a prefix before the keys it
     * starts; with {@code asciiCaseInsensitive}, {@code 'A'..'Z'} compared as {@code 'a'..'z'}.
     * Sorting the keys with it makes them acceptable to {@code build} with the same flag. The
     * comparator is stateless and thread safe; it throws {@link NullPointerException} on a null key.
     */
    public static Comparator<byte[]> order(boolean asciiCaseInsensitive) {
        return asciiCaseInsensitive ? FOLDED_ORDER : EXACT_ORDER;
    }

    private static final Comparator<byte[]> EXACT_ORDER = (a, b) -> compare(a, b, false);
    private static final Comparator<byte[]> FOLDED_ORDER = (a, b) -> compare(a, b, true);

    /** A key for a message: as UTF-8 text when it decodes cleanly and prints, else as hex bytes. */
    private static String describe(byte[] k) {
        int shown = Math.min(k.length, 64);
        int cut = shown;
        while (cut > 0 && cut < k.length && (k[cut] & 0xC0) == 0x80) {
            cut--; // the text stops before a character the 64 bytes would split
        }
        // text only if what the cut leaves out of the 64 bytes is the start of one character (a lead
        // byte and at most two continuation bytes), not a run of bytes that no text holds
        boolean splitsOneCharacter = cut == shown || ((k[cut] & 0xC0) == 0xC0 && shown - cut <= 3);
        StringBuilder sb = new StringBuilder();
        String text = splitsOneCharacter ? printableUtf8(k, cut) : null;
        if (text != null) {
            sb.append('"').append(text.replace("\"", "\\\"")).append(cut < k.length ? "...\"" : "\"");
        } else {
            sb.append("0x");
            for (int j = 0; j < shown; j++) {
                sb.append(Character.forDigit((k[j] >> 4) & 0xF, 16)).append(Character.forDigit(k[j] & 0xF, 16));
            }
            if (shown < k.length) {
                sb.append("...");
            }
        }
        sb.append(" (").append(k.length).append(k.length == 1 ? " byte)" : " bytes)");
        return sb.toString();
    }

    /** The first {@code len} bytes as text, or null if they are not valid UTF-8 or hold a control character. */
    private static String printableUtf8(byte[] k, int len) {
        try {
            String s = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(k, 0, len))
                    .toString();
            for (int j = 0; j < s.length(); j++) {
                if (Character.isISOControl(s.charAt(j))) {
                    return null;
                }
            }
            return s;
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /** x rounded up to a multiple of {@link #FANOUT}; in long, so no int count can overflow it. */
    private static long roundUp(long x) {
        return (x + FANOUT - 1) & -FANOUT;
    }

    /**
     * The largest image {@link #build} makes: the largest array a JVM allocates ({@code
     * Integer.MAX_VALUE - 8}; one or two bytes more fail with an {@code OutOfMemoryError} however
     * large the heap).
     */
    static final long MAX_IMAGE_BYTES = Integer.MAX_VALUE - 8;

    /** @throws IllegalArgumentException if an image of {@code size} bytes is past {@link #MAX_IMAGE_BYTES} */
    static void requireImageFits(long size, int n, long keyBytes) {
        if (size > MAX_IMAGE_BYTES) {
            throw new IllegalArgumentException("index too large: " + size + " bytes (max " + MAX_IMAGE_BYTES + "); " + n
                    + " keys, " + keyBytes + " key bytes");
        }
    }

    /**
     * Longs in each tree level for n keys, root first: the padded prefix array last, above it one
     * entry per node of the level below, padded, up to a single root node. Computed in long and
     * checked before narrowing, so every n >= 0 either fits or throws.
     *
     * @throws IllegalArgumentException if the tree alone would not fit in 2^31-1 bytes
     */
    static int[] levelLengths(int n) {
        long len = Math.max(FANOUT, roundUp(n));
        int levels = 1;
        long total = len;
        for (long l = len; l > FANOUT; levels++) {
            l = roundUp(l / FANOUT);
            total += l;
        }
        if (total > (Integer.MAX_VALUE - HEADER_SIZE) / 8) {
            throw new IllegalArgumentException("too many keys for a ByteKeyIndex: " + n);
        }
        int[] lengths = new int[levels];
        for (int lv = levels - 1; lv >= 0; lv--) {
            lengths[lv] = (int) len;
            len = roundUp(len / FANOUT);
        }
        return lengths;
    }

    private static int sum(int[] lengths) {
        int total = 0;
        for (int len : lengths) {
            total += len;
        }
        return total;
    }

    /** Byte offset of each level, root first; the last level is the prefix array. */
    private static int[] levelBases(int[] lengths) {
        int[] base = new int[lengths.length];
        int at = HEADER_SIZE;
        for (int lv = 0; lv < lengths.length; lv++) {
            base[lv] = at;
            at += 8 * lengths[lv];
        }
        return base;
    }

    private static int offsetsBase(int treeLongs) {
        return HEADER_SIZE + 8 * treeLongs;
    }

    /** Bytes of the image: header, tree, offsets, keys; in long, so no int arguments overflow it. */
    private static long imageSize(int treeLongs, int n, long keyBytes) {
        return HEADER_SIZE + 8L * treeLongs + 4L * (n + 1L) + keyBytes;
    }
}
